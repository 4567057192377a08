/** A client's secret digest as last read; `epoch`: the merchants' epoch read with it (`confirmClient` checks it). */
export type AuthRow = {
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretUntil: Date | null;
  env: string;
  epoch?: number;
};

const MAX_ENTRIES = 10_000;

/**
 * Client id → its secret digest, so a client's requests after the first skip the lookup (a field
 * of the context). Bounded: the oldest entry goes first.
 */
export class AuthCache {
  readonly #rows = new Map<string, AuthRow>();

  get(clientId: string): AuthRow | undefined {
    return this.#rows.get(clientId);
  }

  set(clientId: string, row: AuthRow): void {
    if (this.#rows.size >= MAX_ENTRIES) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(clientId, row);
  }

  delete(clientId: string): void {
    this.#rows.delete(clientId);
  }
}
