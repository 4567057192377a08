import { sql } from 'drizzle-orm';
import type { Merchant } from './merchant.js';

const MAX_ENTRIES = 10_000;

/**
 * The merchants table's version as a statement reads it (migration 0006: a trigger raises it in
 * the same transaction as any update, delete or truncate of merchants).
 */
export const MERCHANT_EPOCH = sql<number>`(select epoch::float8 from merchant_epoch)`.mapWith(Number);

/**
 * Merchant key → merchant lookups kept in memory (a field of the context), so the hot path resolves
 * a merchant without a round trip. One rule on PGlite and Postgres alike: an entry holds the
 * merchants' epoch read in the same statement as its row, and is served only to a request whose own
 * first statement read the same epoch (the rate-limit count carries it). Equal epochs mean no change
 * to merchants committed between the two reads (by this process or any other writer), so the entry
 * is exactly what a lookup at that statement would return, with no notification to wait for or lose.
 */
export class MerchantCache {
  readonly #rows = new Map<string, { row: Merchant; epoch: number }>();

  /** The entry for `key`, if it was read at `seenEpoch` (the epoch the caller's own statement read). */
  get(key: string, seenEpoch: number | undefined): Merchant | undefined {
    if (seenEpoch === undefined) return undefined;
    const hit = this.#rows.get(key);
    return hit && hit.epoch === seenEpoch ? hit.row : undefined;
  }

  /** Keeps `row`, read with `epoch` in the same statement. */
  set(key: string, row: Merchant, epoch: number): void {
    if (!this.#rows.has(key) && this.#rows.size >= MAX_ENTRIES) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(key, { row, epoch });
  }
}
