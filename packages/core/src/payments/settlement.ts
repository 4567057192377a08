import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { SettleInput, SettleResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { lockMerchant, merchantForKey } from '../merchants/merchant-key.js';
import { IS_STATUS, PAYMENT_TYPES } from './state.js';

/**
 * Settlement (DESIGN.md): card transactions completed before the last daily cutoff
 * (`REMIT_SETTLEMENT_CUTOFF`, default 00:00 UTC, on the merchant's sandbox clock) are settled;
 * ACH settles on approval. The rule is applied lazily: `settleIfDue` before a void decides, and
 * `settleDue` for a whole merchant (list reads may call it); `POST /sandbox/settle` closes a batch now.
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

export const settlementCutoffMs = () => parseCutoff(process.env.REMIT_SETTLEMENT_CUTOFF);

/** The most recent daily cutoff at or before `at`. */
export function lastCutoff(at: Date, cutoffMs = settlementCutoffMs()): Date {
  const dayStart = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const today = dayStart + cutoffMs;
  return new Date(today <= at.getTime() ? today : today - DAY_MS);
}

type Row = typeof transactions.$inferSelect;

/** Whether a row counts as settled at merchant time `at` (flagged, or a card payment completed before the cutoff). */
export function isSettled(
  row: Pick<Row, 'settled' | 'paymentMethod' | 'isStatus' | 'completedAt' | 'createdAt'>,
  at: Date,
  cutoffMs = settlementCutoffMs(),
): boolean {
  if (row.settled) return true;
  if (row.paymentMethod !== 'card' || row.isStatus !== IS_STATUS.completed) return false;
  return (row.completedAt ?? row.createdAt).getTime() < lastCutoff(at, cutoffMs).getTime();
}

/** Flags one locked row settled when the cutoff rule says so; returns the row as it now stands. */
export async function settleIfDue(tx: Queryable, row: Row, at: Date): Promise<Row> {
  if (row.settled || !isSettled(row, at)) return row;
  const settledAt = lastCutoff(at);
  await tx.update(transactions).set({ settled: true, settledAt }).where(eq(transactions.id, row.id));
  return { ...row, settled: true, settledAt };
}

const dueCardPayments = (merchantId: string) =>
  and(
    eq(transactions.merchantId, merchantId),
    eq(transactions.paymentMethod, 'card'),
    eq(transactions.isStatus, IS_STATUS.completed),
    eq(transactions.settled, false),
    inArray(transactions.type, [...PAYMENT_TYPES]),
  );

/** Applies the cutoff rule to every card payment of a merchant; returns how many it settled. */
export async function settleDue(db: Queryable, merchant: { id: string; clockOffsetMs: number }, now: Ctx['now']): Promise<number> {
  const cutoff = lastCutoff(merchantNow(now, merchant));
  const rows = await db
    .update(transactions)
    .set({ settled: true, settledAt: cutoff })
    .where(
      and(
        dueCardPayments(merchant.id),
        or(
          lt(transactions.completedAt, cutoff),
          and(isNull(transactions.completedAt), lt(transactions.createdAt, cutoff)),
        ),
      ),
    )
    .returning({ id: transactions.id });
  return rows.length;
}


export const sandboxOnly = (what: string) =>
  new RemitError('sandbox_only', `${what} works only in sandbox; this server runs in production.`);

/** `POST /sandbox/settle`: closes a settlement batch now for every completed, unsettled card payment. */
export async function settleNow(
  ctx: Ctx,
  clientId: string,
  input: SettleInput,
): Promise<{ merchant_id: string; settled_count: number; transaction_ids: string[]; settled_at: string }> {
  if (ctx.env !== 'sandbox') throw sandboxOnly('POST /sandbox/settle');
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  return ctx.db.transaction(async (tx) => {
    // The merchant lock orders batches of one merchant; row locks keep out a void in flight.
    const locked = await lockMerchant(tx, merchant.id);
    const at = merchantNow(ctx.now, locked);
    const ids = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(dueCardPayments(merchant.id))
      .orderBy(transactions.id)
      .for('update');
    const list = ids.map((r) => r.id);
    if (list.length > 0) {
      await tx
        .update(transactions)
        .set({ settled: true, settledAt: at })
        .where(inArray(transactions.id, list));
    }
    return { merchant_id: merchant.id, settled_count: list.length, transaction_ids: list, settled_at: at.toISOString() } satisfies SettleResult;
  });
}
