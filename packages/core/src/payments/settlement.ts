import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SettleResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { lockMerchant, type Merchant } from '../merchants/merchant-key.js';
import { and, coalesce, col, compileWith, eq as same, lit, lt, not, or, param } from './row-expr.js';
import { inState, isPayment } from './state.js';

/**
 * Settlement (docs/concepts.md "Payments and their states"): card transactions completed before the last daily cutoff
 * (`REMIT_SETTLEMENT_CUTOFF`, default 00:00 UTC, on the merchant's sandbox clock) are settled;
 * ACH settles on approval. The rule is applied lazily: the void's guard and the refund's statement
 * read it (`settledBy`, `becomesSettled`), `settleIfDue` before a refund performed as a void, and
 * `settleDue` for a whole merchant; `POST /sandbox/settle` closes a batch now.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** `REMIT_SETTLEMENT_CUTOFF` as "HH" or "HH:MM" (UTC) → milliseconds after midnight. */
export function parseCutoff(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return 0;
  const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(text.trim());
  const h = m ? Number(m[1]) : NaN;
  const min = m?.[2] ? Number(m[2]) : 0;
  if (!m || h > 23 || min > 59) throw new Error(`REMIT_SETTLEMENT_CUTOFF must be HH or HH:MM (UTC), not ${text}`);
  return h * HOUR_MS + min * 60_000;
}

/** The most recent daily cutoff at or before `at`. */
export function lastCutoff(at: Date, cutoffMs: number): Date {
  const dayStart = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const today = dayStart + cutoffMs;
  return new Date(today <= at.getTime() ? today : today - DAY_MS);
}

type Row = typeof transactions.$inferSelect;

/** What the cutoff rule settles: a completed card payment (or record). */
const settlesAtCutoff = and(same(col.text('paymentMethod'), lit.text('card')), inState('completed'));

/** Due at the cutoff `cutoff` (a parameter): completed, or if never, created, before it. */
export const dueToSettle = and(
  settlesAtCutoff,
  lt(coalesce(col.atOrNull('completedAt'), col.at('createdAt')), param.at('cutoff')),
);

/** Settled at the cutoff `cutoff`: flagged, or due. */
export const settledBy = or(col.bool('settled'), dueToSettle);

/** Due and not yet flagged: applying the rule flags it, settled at `cutoff`. */
export const becomesSettled = and(not(col.bool('settled')), dueToSettle);

const settledByJs = compileWith<boolean, [cutoff: Date]>(settledBy, ['cutoff']);
const becomesSettledJs = compileWith<boolean, [cutoff: Date]>(becomesSettled, ['cutoff']);

/** Whether a row counts as settled at merchant time `at` (flagged, or a card payment completed before the cutoff). */
export function isSettled(
  row: Pick<Row, 'settled' | 'paymentMethod' | 'isStatus' | 'completedAt' | 'createdAt'>,
  at: Date,
  cutoffMs: number,
): boolean {
  return settledByCutoff(row, lastCutoff(at, cutoffMs));
}

/** `isSettled` for a cutoff already worked out: a list's rows share one. */
export const settledByCutoff = (
  row: Pick<Row, 'settled' | 'paymentMethod' | 'isStatus' | 'completedAt' | 'createdAt'>,
  cutoff: Date,
): boolean => settledByJs(row as Row, cutoff);

/** Flags one locked row settled when the cutoff rule says so; returns the row as it now stands. */
export async function settleIfDue(tx: Queryable, row: Row, at: Date, cutoffMs: number): Promise<Row> {
  const settledAt = lastCutoff(at, cutoffMs);
  if (!becomesSettledJs(row, settledAt)) return row;
  await tx.update(transactions).set({ settled: true, settledAt }).where(eq(transactions.id, row.id));
  return { ...row, settled: true, settledAt };
}

/** A merchant's payments the cutoff rule may settle and has not: `due` narrows them. */
const unsettledPayments = (merchantId: string, due: SQL) =>
  sql`merchant_id = ${merchantId} and ${isPayment.sql()} and not settled and ${due}`;

/** Applies the cutoff rule to every card payment of a merchant; returns how many it settled. */
export async function settleDue(
  ctx: Pick<Ctx, 'now' | 'settlementCutoffMs'>,
  db: Queryable,
  merchant: { id: string; clockOffsetMs: number },
): Promise<number> {
  const cutoff = lastCutoff(merchantNow(ctx.now, merchant), ctx.settlementCutoffMs);
  const rows = await db
    .update(transactions)
    .set({ settled: true, settledAt: cutoff })
    .where(unsettledPayments(merchant.id, dueToSettle.sql(undefined, { cutoff: cutoff.toISOString() })))
    .returning({ id: transactions.id });
  return rows.length;
}

export const sandboxOnly = (what: string) =>
  new RemitError('sandbox_only', `${what} works only in sandbox; this server runs in production.`);

/** `POST /sandbox/settle`: closes a settlement batch now for every completed, unsettled card payment. */
export async function settleNow(
  ctx: Ctx,
  merchant: Merchant,
): Promise<{ merchant_id: string; settled_count: number; transaction_ids: string[]; settled_at: string }> {
  if (ctx.env !== 'sandbox') throw sandboxOnly('POST /sandbox/settle');
  return ctx.db.transaction(async (tx) => {
    // The merchant lock orders batches of one merchant; row locks keep out a void in flight.
    const locked = await lockMerchant(tx, merchant.id);
    const at = merchantNow(ctx.now, locked);
    const ids = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(unsettledPayments(merchant.id, settlesAtCutoff.sql()))
      .orderBy(transactions.id)
      .for('update');
    const list = ids.map((r) => r.id);
    if (list.length > 0) {
      await tx.update(transactions).set({ settled: true, settledAt: at }).where(inArray(transactions.id, list));
    }
    return {
      merchant_id: merchant.id,
      settled_count: list.length,
      transaction_ids: list,
      settled_at: at.toISOString(),
    } satisfies SettleResult;
  });
}
