import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/connect.js';
import { perHandle } from '../db/prepared-sql.js';
import { merchants } from '../db/schema.js';
import { RemitError, unauthorizedMerchant, unauthorizedPublicKey } from '../errors.js';
import { digest } from '../secret-keys.js';
import { inOpenTransaction, type Operation } from '../operation.js';
import { MERCHANT_EPOCH, type MerchantCache } from './merchant-cache.js';
import type { Merchant } from './merchant.js';

/**
 * A merchant as operations see it: everything but the onboarding documents (large JSON that only
 * the owner call reads), which keeps the per-request lookup small.
 */
const { businessInfo: _b, ownerInfo: _o, processingInfo: _p, ...merchantColumns } = getTableColumns(merchants);
export type { Merchant } from './merchant.js';

/**
 * The merchant a `merchant_key` names, if it belongs to this client. Unknown, malformed and
 * other clients' keys all fail the same way, so keys cannot be probed across tenants.
 * `seenEpoch`: the merchants' epoch this request's own first statement read (`MERCHANT_EPOCH`);
 * only with it may the answer come from the context's cache, else it is looked up.
 */
export async function merchantForKey(
  ctx: { db: Db; op: Operation; merchantCache: MerchantCache },
  clientId: string,
  merchantKey: unknown,
  seenEpoch?: number,
): Promise<Merchant> {
  if (typeof merchantKey !== 'string' || merchantKey.length === 0 || merchantKey.length > 200) {
    throw unauthorizedMerchant();
  }
  const hash = digest(merchantKey);
  const key = `${clientId}:${hash}`;
  const hit = ctx.merchantCache.get(key, seenEpoch);
  if (hit) return hit;
  const [found] = await byKeyQuery(ctx.db).execute({ hash, clientId });
  if (!found) throw unauthorizedMerchant();
  const { epoch, ...row } = found;
  // Kept with the epoch read in the lookup's own snapshot. A row read inside an operation's open
  // transaction (a keyed request's held one) may yet be rolled back: it is not kept.
  if (!inOpenTransaction(ctx.op)) ctx.merchantCache.set(key, row, epoch);
  return row;
}

// Every API call runs this lookup: build its SQL once per database, and let Postgres keep the plan.
// It reads the merchants' epoch in the same statement, so the row and its version agree.
const byKeyQuery = perHandle((db: Db) =>
  db
    .select({ ...merchantColumns, epoch: MERCHANT_EPOCH })
    .from(merchants)
    .where(
      and(eq(merchants.merchantKeyHash, sql.placeholder('hash')), eq(merchants.clientId, sql.placeholder('clientId'))),
    )
    .limit(1)
    .prepare('merchant_for_key'),
);

/** The merchant whose public key this is, whatever the caller's origin (401 `unauthorized` for none). */
export async function merchantWithPublicKey(db: Db, publicKey: unknown): Promise<Merchant> {
  if (typeof publicKey !== 'string' || !publicKey.startsWith('pk_') || publicKey.length > 200)
    throw unauthorizedPublicKey();
  const [row] = await db.select(merchantColumns).from(merchants).where(eq(merchants.publicKey, publicKey)).limit(1);
  if (!row) throw unauthorizedPublicKey();
  return row;
}

/**
 * The merchant a publishable key (`pk_…`) names, for calls from a browser (the widgets): the key is
 * public, so the caller's `Origin` must be one the merchant allowed. Unknown and malformed keys are
 * 401 `invalid_public_key`; a known key from a missing or not allowed origin is 403
 * `origin_not_allowed` (the key is public anyway; the 403 tells the merchant what to fix).
 * `allowedOrigins` answers the exact origins, or `'any'` (a sandbox merchant with an empty list).
 */
export async function merchantForPublicKey(
  db: Db,
  publicKey: unknown,
  origin: unknown,
  allowedOrigins: (merchant: Merchant) => Promise<readonly string[] | 'any'> | readonly string[] | 'any',
): Promise<Merchant> {
  const row = await merchantWithPublicKey(db, publicKey);
  if (typeof origin !== 'string' || origin.length === 0 || origin.length > 300)
    throw new RemitError('origin_not_allowed');
  const allowed = await allowedOrigins(row);
  if (allowed !== 'any' && !allowed.some((o) => o.toLowerCase() === origin.toLowerCase()))
    throw new RemitError('origin_not_allowed');
  return row;
}

/** The same lookup inside a transaction, holding the merchant row until it commits. */
export async function lockMerchant(db: Queryable, merchantId: string): Promise<Merchant> {
  const [row] = await db.select(merchantColumns).from(merchants).where(eq(merchants.id, merchantId)).for('update');
  if (!row) throw unauthorizedMerchant();
  return row;
}
