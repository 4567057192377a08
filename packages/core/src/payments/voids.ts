import { eq, sql, type SQL } from 'drizzle-orm';
import type { VoidInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { notFound } from '../errors.js';
import { eventInsertSql, writeWithEvent } from '../webhooks/outbox.js';
import { preparedSql, type PreparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { outboxWritten } from '../operation.js';
import type { Merchant } from '../merchants/merchant-key.js';
import type { Guard } from './guard.js';
import { payloadOf, payloadSql, voidFromOriginal } from './payloads.js';
import {
  lockTransaction,
  originalRow,
  recordInsert,
  recordInsertSql,
  recordShown,
  rowsOf,
  toMoneyRecord,
  type MoneyRecord,
  type RecordShown,
  type TxnRow,
} from './records.js';
import { voidGuard, voidNetCents, voidTakes } from './rules.js';
import { lastCutoff } from './settlement.js';
import { processorKey } from '../processor/keys.js';
import { withProcessor } from './with-processor.js';
import { nextState, stateColumns, stateOf, statesAllowing, targetOf, type PaymentEvent } from './state.js';
import { inTransaction } from '../operation.js';

/** `POST /order/sales-void`: voids a completed, unsettled payment. */

export { SETTLED_VOID_MESSAGE } from './rules.js';
export const VOID_NOT_FOUND_MESSAGE =
  'Transaction not found: no transaction with this transaction_id belongs to this merchant.';

/**
 * Voids `original` (locked by the caller): the void record takes the amount not yet refunded
 * and gives back the rest of the original's net, so the merchant's balance returns to zero.
 */
export async function performVoid(
  tx: Queryable,
  ctx: Pick<Ctx, 'processor' | 'op' | 'outbox'>,
  merchant: Merchant,
  original: TxnRow,
  at: Date,
  opts: { event: PaymentEvent; eventType: 'payment.void' | 'preauth.void' },
): Promise<RecordShown> {
  const from = stateOf(original.isStatus);
  const take = nextState(from, opts.event) === 'voided' ? voidTakes(from) : null;
  if (!take) throw new Error(`void from ${from} is not in the state table`);
  // An open preauthorization releases its whole hold. Either way the void record cancels the
  // original's remaining net, so a voided payment and its records sum to zero in any list.
  const hold = from === 'authorized';
  const amountCents = take.eval(original, {});
  const r = { type: 'Void' as const, amountCents, netCents: voidNetCents.eval(original, {}), at };
  const made = recordInsert(originalRow(original.id), r);
  const record = recordShown(
    made,
    { order_createdfrom: original.orderCreatedfrom, amount_cents: amountCents },
    { ...r, originalId: original.id },
  );
  const shown = toMoneyRecord(record);
  const update = tx
    .update(transactions)
    .set({ ...stateColumns('voided'), updatedAt: at })
    .where(eq(transactions.id, original.id));
  // The record, the original's new state and the event: one statement (the caller holds the lock).
  await writeWithEvent({ ...ctx, db: tx }, [made.query, update], {
    clientId: merchant.clientId,
    merchantId: merchant.id,
    type: opts.eventType,
    data: { ...voidEventData(merchant, record, shown), ...payloadOf(voidFromOriginal(take), original) },
  });
  await voidAtProcessor(ctx, { originalRef: original.gatewayRef, recordId: record.id, hold, amountCents });
  return record;
}

/**
 * The processor's side of a void, called once the void is written and the row lock held: an open
 * authorization is cancelled; a captured payment gets back what was not yet refunded.
 */
async function voidAtProcessor(
  ctx: Pick<Ctx, 'processor' | 'op'>,
  v: { originalRef: string | null; recordId: string; hold: boolean; amountCents: number },
): Promise<void> {
  const gatewayRef = v.originalRef ?? '';
  if (v.hold) {
    await ctx.processor.cancel({
      gatewayRef,
      idempotencyKey: processorKey(ctx.op.key, 'cancel', v.recordId),
      deferTo: ctx.op.deferred,
      reference: v.recordId,
    });
  } else if (v.amountCents > 0) {
    // A void gives the merchant our fee back (its record's fee is the original's, negated).
    await ctx.processor.refund({
      gatewayRef,
      amountCents: v.amountCents,
      reference: v.recordId,
      returnFee: true,
      idempotencyKey: processorKey(ctx.op.key, 'void', v.recordId),
      deferTo: ctx.op.deferred,
    });
  }
}

/** A void event's payload but for what the original row gives (`order_createdfrom`, `amount`). */
function voidEventData(merchant: Merchant, record: RecordShown, shown: MoneyRecord) {
  return {
    merchant_id: merchant.id,
    transaction_id: record.id,
    Status: 'Success' as const,
    linked_txn_id: record.linkedTxnId ?? '',
    sales_id: record.id,
    txn_id: shown.txn_id,
    txn_date: shown.txn_date,
    type: 'Void' as const,
  };
}

/**
 * The void itself, guarded in its own UPDATE: a completed payment, not settled and not due to be
 * (the cutoff rule). One statement takes the row lock, voids the original, writes the Void record
 * (the amount not yet refunded; it cancels the rest of the original's net) and `payment.void`.
 * Null when the guard refused: the caller finds out why under the lock.
 */
async function writeVoid(
  q: Queryable,
  ctx: Pick<Ctx, 'settlementCutoffMs' | 'processor' | 'op' | 'outbox'>,
  merchant: Merchant,
  input: VoidInput,
  at: Date,
): Promise<{ message: string; data: MoneyRecord } | null> {
  const data = await writeGuardedVoid(q, ctx, voidStatement, merchant, input.transaction_id, at, false, {
    cutoff: lastCutoff(at, ctx.settlementCutoffMs).toISOString(),
  });
  return data && { message: VOIDED, data };
}

/**
 * Runs a statement of `guardedVoidSql` on the original `txnId`, then the processor's side of the
 * void (`hold`: the original is an open authorization): the Void record as the answer shows it,
 * or null when the statement's guard refused (nothing written, nothing asked of the processor).
 */
export async function writeGuardedVoid(
  q: Queryable,
  ctx: Pick<Ctx, 'processor' | 'op' | 'outbox'>,
  statement: PreparedSql,
  merchant: Merchant,
  txnId: string,
  at: Date,
  hold: boolean,
  values: Record<string, unknown> = {},
): Promise<MoneyRecord | null> {
  const r = { type: 'Void' as const, at };
  const made = { id: newId.transaction(), gatewayRef: newId.gatewayRef() };
  const placeholder = recordShown(made, { order_createdfrom: '', amount_cents: 0 }, { ...r, originalId: txnId });
  const [row] = rowsOf<{ order_createdfrom: string; amount_cents: number; original_ref: string | null }>(
    await statement.run(q, {
      ...values,
      at: at.toISOString(),
      txnId,
      merchantId: merchant.id,
      recordId: made.id,
      gatewayRef: made.gatewayRef,
      eventId: newId.event(),
      clientId: merchant.clientId,
      data: JSON.stringify(voidEventData(merchant, placeholder, toMoneyRecord(placeholder))),
    }),
  );
  if (!row) return null;
  await voidAtProcessor(ctx, {
    originalRef: row.original_ref,
    recordId: made.id,
    hold,
    amountCents: Number(row.amount_cents),
  });
  outboxWritten(ctx, 'webhooks');
  return toMoneyRecord(recordShown(made, row, { ...r, originalId: txnId }));
}

/**
 * A void in one statement, to prepare once: its UPDATE takes the row lock and checks `guard`
 * (placeholders as its rules name them) against the latest row, voids the original (the one state
 * the table allows `event` from), writes the Void record of what a void from that state takes
 * back, cancelling the rest of its net, and the `eventType` event. Returns the record's
 * `order_createdfrom` and `amount_cents`, and the original's `gateway_ref` as `original_ref`; no
 * row when the guard refused.
 */
export function guardedVoidSql(
  guard: Guard,
  event: 'void' | 'preauth_void',
  eventType: 'payment.void' | 'preauth.void',
): SQL {
  const from = statesAllowing(event);
  const take = from.length === 1 ? voidTakes(from[0]!) : null;
  if (!take || targetOf(event) !== 'voided') throw new Error(`${event} no longer voids from one state`);
  const ph = sql.placeholder;
  const at = sql`${ph('at')}::timestamptz`;
  const voided = stateColumns('voided');
  const update = sql`update transactions set is_status = ${voided.isStatus}::smallint, status = ${voided.status}::text, updated_at = ${at}
    where id = ${ph('txnId')} and merchant_id = ${ph('merchantId')} and ${guard.allows.sql()}
    returning *`;
  // The record and the event read the updated row, whose amounts and balances the void left as they were.
  const made = recordInsertSql(
    sql`u`,
    { type: 'Void', amountCents: take.sql('o'), netCents: voidNetCents.sql('o') },
    { id: ph('recordId'), gatewayRef: ph('gatewayRef'), at },
  );
  const e = eventInsertSql(
    sql`u`,
    { id: ph('eventId'), clientId: ph('clientId'), merchantId: ph('merchantId'), type: eventType, data: ph('data') },
    payloadSql(voidFromOriginal(take), 'u'),
  );
  return sql`with u as (${update}), r as (${made}), e as (${e}) select r.order_createdfrom, r.amount_cents, u.gateway_ref as original_ref from r, u`;
}

/**
 * `writeVoid`'s statement, built once and prepared (building it with Drizzle on every request
 * cost more than running it); only the placeholders' values change per call.
 */
const voidStatement = preparedSql('remit_void', () => guardedVoidSql(voidGuard, 'void', 'payment.void'));

const VOIDED = 'Transaction voided successfully.';

/**
 * Voids in one statement when the void is allowed (the usual case); otherwise, in one
 * transaction holding the row lock, the refusal of the same guard (the cutoff rule included), or
 * (the original changed in between) the void after all.
 */
export async function voidTransaction(
  ctx: Ctx,
  merchant: Merchant,
  input: VoidInput,
): Promise<{ message: string; data: MoneyRecord }> {
  const done = await withProcessor(ctx, (q, ctx) => writeVoid(q, ctx, merchant, input, merchantNow(ctx.now, merchant)));
  if (done) return done;
  return inTransaction(ctx, async (tx, ctx) => {
    const locked = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!locked) throw notFound('transaction_not_found', VOID_NOT_FOUND_MESSAGE);
    const at = merchantNow(ctx.now, merchant);
    // The cutoff rule is part of the guard: a payment due to settle is refused as settled.
    const refusal = voidGuard.refusal(locked, { cutoff: lastCutoff(at, ctx.settlementCutoffMs) });
    if (refusal) throw refusal;
    const record = await performVoid(tx, ctx, merchant, locked, at, { event: 'void', eventType: 'payment.void' });
    return { message: VOIDED, data: toMoneyRecord(record) };
  });
}
