import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/connect.js';

/** A client's circuit as its claimed rows show it (columns of `clients`). */
export interface CircuitColumns {
  client_id: string;
  webhook_failures: number;
  webhook_slow_since: Date | string | null;
}

/** A local mark no claim has confirmed for this long is dropped (the database stays the truth). */
const FORGET_MS = 10 * 60_000;

/**
 * Each client's webhook circuit, kept in `clients` so every server agrees: closed, the client's
 * deliveries go out through the dispatcher's slots; open (`webhook_slow_since` set), through the
 * slow lane (a few slots beside those, for all open clients together), one try at a time.
 * It opens when a try is still unanswered after the slow threshold (it costs the pool, whatever
 * comes of it) or after `failuresToOpen` failed tries in a row; a 2xx answered within the slow
 * threshold closes it (a try in the slow lane is the half-open probe).
 *
 * This process's view: clients seen open in claims or opened here. Healthy clients cost no write:
 * a reset is written only for a client that claims or this process have seen failing.
 */
export class Circuits {
  /** Open clients: when the mark was last confirmed (performance.now()); NaN while its write is in flight. */
  readonly #open = new Map<string, number>();
  /** Clients this process counted a failure for since it last saw them reset. */
  readonly #failing = new Set<string>();

  constructor(
    readonly db: Db,
    readonly failuresToOpen: number,
    readonly track: (write: Promise<unknown>) => void,
  ) {}

  isOpen(client: string): boolean {
    return this.#open.has(client);
  }

  /** The clients this process holds open (for the claim's rooms). */
  openClients(): string[] {
    const now = performance.now();
    for (const [client, at] of this.#open) if (now - at > FORGET_MS) this.#open.delete(client);
    return [...this.#open.keys()];
  }

  /** What a claim (made at `claimStart`) read: the database opened or closed the circuit. */
  seen(row: CircuitColumns, claimStart: number): void {
    if (row.webhook_slow_since !== null) this.#open.set(row.client_id, performance.now());
    else {
      // Closed in the database, by a claim that began after our mark was written: closed elsewhere.
      const at = this.#open.get(row.client_id);
      if (at !== undefined && at < claimStart) this.#open.delete(row.client_id);
    }
  }

  /** A try is still unanswered after the slow threshold: open now. */
  slow(client: string): void {
    if (this.#open.has(client)) return;
    this.#open.set(client, Number.NaN);
    this.#write(
      sql`update clients set webhook_slow_since = coalesce(webhook_slow_since, now()) where id = ${client}`,
      () => this.#open.has(client) && this.#open.set(client, performance.now()),
    );
  }

  /** A try failed (an error, a timeout, an answer other than 2xx or 410). */
  failed(client: string): void {
    this.#failing.add(client);
    this.#write(
      sql`update clients set webhook_failures = webhook_failures + 1,
            webhook_slow_since = case when webhook_failures + 1 >= ${this.failuresToOpen}::int then coalesce(webhook_slow_since, now()) else webhook_slow_since end
          where id = ${client} returning webhook_slow_since`,
      (rows) => {
        if (rows[0]?.webhook_slow_since) this.#open.set(client, performance.now());
      },
    );
  }

  /** A 2xx answered within the slow threshold: close, if anyone saw the client failing. */
  answered(row: CircuitColumns): void {
    const client = row.client_id;
    if (
      !this.#open.has(client) &&
      !this.#failing.has(client) &&
      row.webhook_failures === 0 &&
      row.webhook_slow_since === null
    )
      return;
    this.#open.delete(client);
    this.#failing.delete(client);
    this.#write(sql`update clients set webhook_failures = 0, webhook_slow_since = null where id = ${client}`, () => {});
  }

  #write(statement: SQL, then: (rows: Array<{ webhook_slow_since?: unknown }>) => unknown): void {
    // Not written (logged by `track`): the mark stays local, and the next try's outcome writes again.
    this.track(
      this.db
        .execute(statement)
        .then((r) => then((r as unknown as { rows: Array<{ webhook_slow_since?: unknown }> }).rows)),
    );
  }
}
