import type { Merchant } from './merchant-key.js';

const MAX_ENTRIES = 10_000;
/** A statement that may change a merchant row: a write naming the table (ORM or raw SQL alike). */
const WRITES_MERCHANTS = /^\s*(?:update|delete|insert|with|merge|truncate|alter|drop)\b[\s\S]*?\bmerchants\b/i;

/**
 * Merchant lookups of a database that only this process writes (PGlite: one process owns it), so
 * the hot path resolves a merchant key without a round trip. It never goes stale: the driver shows
 * the cache every statement it sends, and any write that names the `merchants` table empties it
 * (and bumps the generation, so a lookup already on its way does not store what it read before).
 * Postgres, with N processes writing, has no cache.
 */
export class MerchantCache {
  #generation = 0;
  readonly #rows = new Map<string, Merchant>();

  /** Called with each statement's text before the driver sends it. */
  sawStatement(text: string): void {
    if (WRITES_MERCHANTS.test(text)) this.invalidate();
  }

  invalidate(): void {
    this.#generation++;
    this.#rows.clear();
  }

  get generation(): number {
    return this.#generation;
  }

  get(key: string): Merchant | undefined {
    return this.#rows.get(key);
  }

  /** Keeps `row` unless the cache was emptied since `generation` was read (before the lookup). */
  set(key: string, row: Merchant, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#rows.size >= MAX_ENTRIES) this.#rows.delete(this.#rows.keys().next().value!);
    this.#rows.set(key, row);
  }
}

const caches = new WeakMap<object, MerchantCache>();

/** Gives `db` a merchant cache (connectDatabase does, for PGlite). */
export function attachMerchantCache(db: object, cache: MerchantCache): void {
  caches.set(db, cache);
}

export function merchantCacheOf(db: object): MerchantCache | undefined {
  return caches.get(db);
}
