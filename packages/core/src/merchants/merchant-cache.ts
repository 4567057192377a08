import { sql } from 'drizzle-orm';
import type { Merchant } from './merchant.js';

const MAX_ENTRIES = 10_000;
/** A statement that may change a merchant row: a write naming the table (ORM or raw SQL alike). */
const WRITES_MERCHANTS = /^\s*(?:update|delete|insert|with|merge|truncate|alter|drop)\b[\s\S]*?\bmerchants\b/i;

/**
 * The merchants table's version as a statement reads it (migration 0006: a trigger raises it in
 * the same transaction as any update, delete or truncate of merchants).
 */
export const MERCHANT_EPOCH = sql<number>`(select epoch::float8 from merchant_epoch)`.mapWith(Number);

/**
 * Merchant key → merchant lookups kept in memory, so the hot path resolves a merchant without a
 * round trip. An entry carries a version, and is served only to a caller holding the same version:
 * - `local` (PGlite: this process alone writes the database): the version is a counter that the
 *   driver bumps on every statement it sends that writes `merchants` (`sawStatement`);
 * - `shared` (Postgres, N processes and any other writer): the version is the database's
 *   `merchant_epoch`. An entry holds the epoch read in the same statement as its row; a request
 *   may use it only with the epoch its own first statement read (the rate-limit count carries it).
 *   Equal epochs mean no change to merchants committed between the two reads, so the entry is
 *   exactly what a lookup at that statement would return: a change committed anywhere before the
 *   request began is seen by it, with no notification to wait for or to lose.
 */
export class MerchantCache {
  #generation = 0;
  readonly #rows = new Map<string, { row: Merchant; version: number }>();

  constructor(readonly mode: 'local' | 'shared') {}

  /** Called (local mode) with each statement's text before the driver sends it. */
  sawStatement(text: string): void {
    if (WRITES_MERCHANTS.test(text)) {
      this.#generation++;
      this.#rows.clear();
    }
  }

  /**
   * The version a lookup starting now must match: the local counter, or in shared mode the epoch
   * the caller's own statement read (`undefined` when it read none: the cache is not used).
   */
  versionNow(seenEpoch: number | undefined): number | undefined {
    return this.mode === 'local' ? this.#generation : seenEpoch;
  }

  get(key: string, version: number): Merchant | undefined {
    const hit = this.#rows.get(key);
    return hit && hit.version === version ? hit.row : undefined;
  }

  /** Keeps `row`, read at `version` (the counter before the lookup, or the epoch read with the row). */
  set(key: string, row: Merchant, version: number): void {
    if (this.mode === 'local' && version !== this.#generation) return;
    if (!this.#rows.has(key) && this.#rows.size >= MAX_ENTRIES) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(key, { row, version });
  }
}

const caches = new WeakMap<object, MerchantCache>();

/** Gives `db` a merchant cache (connectDatabase does: local for PGlite, shared for Postgres). */
export function attachMerchantCache(db: object, cache: MerchantCache): void {
  caches.set(db, cache);
}

export function merchantCacheOf(db: object): MerchantCache | undefined {
  return caches.get(db);
}

/**
 * What a request's first statement should also select so that its merchant can come from the
 * cache: the epoch, on a shared cache; nothing on a local one (or none).
 */
export function merchantEpochRead(db: object) {
  return caches.get(db)?.mode === 'shared' ? MERCHANT_EPOCH : undefined;
}
