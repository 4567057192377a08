import { eq, sql, type SQL } from 'drizzle-orm';
import { errorMessage, type VoidInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { eventInsertSql, writeWithEvent } from '../events/outbox.js';
import { preparedSql, type PreparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { outboxWritten } from '../outbox-signal.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber } from '../money.js';
import { lockTransaction, originalRow, recordInsert, recordInsertSql, recordShown, rowsOf, isPaymentTypeSql, toMoneyRecord, type MoneyRecord, type RecordShown, type TxnRow } from './records.js';
import { lastCutoff, settleIfDue } from './settlement.js';
import { processorKey } from '../processor/keys.js';
import { withProcessor } from './with-processor.js';
import { IS_STATUS, isPaymentType, nextState, stateColumns, stateOf, type PaymentEvent } from './state.js';

/** `POST /order/sales-void`: voids a completed, unsettled payment. */

export const SETTLED_VOID_MESSAGE = errorMessage('transaction_settled');
export const VOID_NOT_FOUND_MESSAGE =
  'Transaction not found: no transaction with this transaction_id belongs to this merchant.';



/**
 * Voids `original` (locked by the caller): the void record takes the amount not yet refunded
 * and gives back the rest of the original's net, so the merchant's balance returns to zero.
 */
export async function performVoid(
  tx: Queryable,
  ctx: Pick<Ctx, 'processor'>,
  merchant: Merchant,
  original: TxnRow,
  at: Date,
  opts: { event: PaymentEvent; eventType: 'payment.void' | 'preauth.void' },
): Promise<RecordShown> {
  const next = nextState(stateOf(original.isStatus), opts.event);
  if (next !== 'voided') throw new Error(`void from ${stateOf(original.isStatus)} is not in the state table`);
  // An open preauthorization releases its whole hold. Either way the void record cancels the
  // original's remaining net, so a voided payment and its records sum to zero in any list.
  const hold = stateOf(original.isStatus) === 'authorized';
  const amountCents = hold ? (original.authorizedCents ?? original.amountCents) : original.amountCents - original.refundedCents;
  const r = { type: 'Void' as const, amountCents, netCents: -(original.netCents - original.refundedCents), at };
  const made = recordInsert(originalRow(original.id), r);
  const record = recordShown(made, { order_createdfrom: original.orderCreatedfrom, amount_cents: amountCents }, { ...r, originalId: original.id });
  const shown = toMoneyRecord(record);
  const update = tx
    .update(transactions)
    .set({ ...stateColumns(next), updatedAt: at })
    .where(eq(transactions.id, original.id));
  // The record, the original's new state and the event: one statement (the caller holds the lock).
  await writeWithEvent(tx, [made.query, update], {
    clientId: merchant.clientId,
    merchantId: merchant.id,
    type: opts.eventType,
    data: { ...voidEventData(merchant, record, shown), order_createdfrom: record.orderCreatedfrom, amount: amountNumber(amountCents) },
  });
  await voidAtProcessor(ctx, { originalRef: original.gatewayRef, recordId: record.id, hold, amountCents });
  return record;
}

/**
 * The processor's side of a void, called once the void is written and the row lock held: an open
 * authorization is cancelled; a captured payment gets back what was not yet refunded.
 */
async function voidAtProcessor(
  ctx: Pick<Ctx, 'processor'>,
  v: { originalRef: string | null; recordId: string; hold: boolean; amountCents: number },
): Promise<void> {
  const gatewayRef = v.originalRef ?? '';
  if (v.hold) {
    await ctx.processor.cancel({ gatewayRef, idempotencyKey: processorKey('cancel', v.recordId) });
  } else if (v.amountCents > 0) {
    // A void gives the merchant our fee back (its record's fee is the original's, negated).
    await ctx.processor.refund({ gatewayRef, amountCents: v.amountCents, reference: v.recordId, returnFee: true, idempotencyKey: processorKey('void', v.recordId) });
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

/** Why a locked payment cannot be voided through `POST /order/sales-void`, or null when it can. */
function voidRefusal(row: TxnRow) {
  if (!isPaymentType(row.type)) {
    return invalid('not_voidable', `Only a payment can be voided; ${row.id} is a ${row.type} record.`);
  }
  if (row.settled) return invalid('transaction_settled', SETTLED_VOID_MESSAGE);
  const state = stateOf(row.isStatus);
  if (state === 'voided') return invalid('already_voided', 'The transaction has already been voided.');
  if (state === 'refunded') {
    return invalid('already_refunded', 'The transaction has been fully refunded; there is nothing left to void.');
  }
  if (state === 'authorized') {
    return invalid('not_voidable', 'This is an open preauthorization; void it with POST /preauth/void.');
  }
  if (nextState(state, 'void') === null) {
    return invalid('not_voidable', `Only a completed transaction can be voided; this transaction is ${state}.`);
  }
  return null;
}

/**
 * The void itself, guarded in its own UPDATE: a completed payment, not settled and not due to be
 * (the cutoff rule). One statement takes the row lock, voids the original, writes the Void record
 * (the amount not yet refunded; it cancels the rest of the original's net) and `payment.void`.
 * Null when the guard refused: the caller finds out why under the lock.
 */
async function writeVoid(
  q: Queryable,
  ctx: Pick<Ctx, 'settlementCutoffMs' | 'processor'>,
  merchant: Merchant,
  input: VoidInput,
  at: Date,
): Promise<{ message: string; data: MoneyRecord } | null> {
  const data = await writeGuardedVoid(q, ctx, voidStatement(), merchant, input.transaction_id, at, false, {
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
  ctx: Pick<Ctx, 'processor'>,
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
  await voidAtProcessor(ctx, { originalRef: row.original_ref, recordId: made.id, hold, amountCents: Number(row.amount_cents) });
  outboxWritten(q, 'webhooks');
  return toMoneyRecord(recordShown(made, row, { ...r, originalId: txnId }));
}

/**
 * A void in one statement, to prepare once: its UPDATE takes the row lock and checks `guard` (SQL
 * over the original's columns, placeholders as needed) against the latest row, voids the
 * original, writes the Void record of `amount` (SQL over the original as alias `t`) cancelling the
 * rest of its net, and the `eventType` event. Returns the record's `order_createdfrom` and
 * `amount_cents`, and the original's `gateway_ref` as `original_ref`; no row when the guard refused.
 */
export function guardedVoidSql(guard: SQL, amount: (t: SQL) => SQL, eventType: 'payment.void' | 'preauth.void'): SQL {
  const ph = sql.placeholder;
  const at = sql`${ph('at')}::timestamptz`;
  const voided = stateColumns('voided');
  const update = sql`update transactions set is_status = ${voided.isStatus}::smallint, status = ${voided.status}::text, updated_at = ${at}
    where id = ${ph('txnId')} and merchant_id = ${ph('merchantId')} and ${guard}
    returning *`;
  const made = recordInsertSql(
    sql`u`,
    { type: 'Void', amountCents: amount(sql`o`), netCents: sql`-(o.net_cents - o.refunded_cents)` },
    { id: ph('recordId'), gatewayRef: ph('gatewayRef'), at },
  );
  const event = eventInsertSql(
    sql`u`,
    { id: ph('eventId'), clientId: ph('clientId'), merchantId: ph('merchantId'), type: eventType, data: ph('data') },
    { order_createdfrom: sql`u.order_createdfrom`, amount: sql`((${amount(sql`u`)}) / 100.0)::float8` },
  );
  return sql`with u as (${update}), r as (${made}), e as (${event}) select r.order_createdfrom, r.amount_cents, u.gateway_ref as original_ref from r, u`;
}

/**
 * `writeVoid`'s statement, built once and prepared (building it with Drizzle on every request
 * cost more than running it); only the placeholders' values change per call.
 */
let voidPrepared: PreparedSql | undefined;
function voidStatement(): PreparedSql {
  return (voidPrepared ??= preparedSql('remit_void', () => {
    if (nextState('completed', 'void') !== 'voided') throw new Error('the state table no longer voids a completed payment');
    const cutoff = sql`${sql.placeholder('cutoff')}::timestamptz`;
    const guard = sql`${isPaymentTypeSql} and is_status = ${IS_STATUS.completed}::smallint and not settled
      and not (payment_method = 'card' and coalesce(completed_at, created_at) < ${cutoff})`;
    return guardedVoidSql(guard, (t) => sql`${t}.amount_cents - ${t}.refunded_cents`, 'payment.void');
  }));
}

const VOIDED = 'Transaction voided successfully.';

/**
 * Voids in one statement when the void is allowed (the usual case); otherwise, in one
 * transaction holding the row lock, the refusal that applies (the settled flag brought up to
 * date first), or (the original changed in between) the void after all.
 */
export async function voidTransaction(
  ctx: Ctx,
  merchant: Merchant,
  input: VoidInput,
): Promise<{ message: string; data: MoneyRecord }> {
  const done = await withProcessor(ctx, (q) => writeVoid(q, ctx, merchant, input, merchantNow(ctx.now, merchant)));
  if (done) return done;
  return ctx.db.transaction(async (tx) => {
    const locked = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!locked) throw notFound('transaction_not_found', VOID_NOT_FOUND_MESSAGE);
    const at = merchantNow(ctx.now, merchant);
    const row = isPaymentType(locked.type) ? await settleIfDue(tx, locked, at, ctx.settlementCutoffMs) : locked;
    const refusal = voidRefusal(row);
    if (refusal) throw refusal;
    const record = await performVoid(tx, ctx, merchant, row, at, { event: 'void', eventType: 'payment.void' });
    return { message: VOIDED, data: toMoneyRecord(record) };
  });
}
