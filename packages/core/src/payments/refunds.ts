import { sql } from 'drizzle-orm';
import type { EventData, RefundInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { notFound } from '../errors.js';
import { eventInsertSql } from '../webhooks/outbox.js';
import { preparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { inTransaction, outboxWritten } from '../operation.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber } from '../money.js';
import { lockTransaction, recordInsertSql, recordShown, rowsOf, toMoneyRecord, type MoneyRecord } from './records.js';
import { param } from './row-expr.js';
import { FULL_REFUND_VOID_AGE_MS, REFUND_MESSAGES, refundGuard, refundIsVoid, refundTakesRest } from './rules.js';
import { becomesSettled, lastCutoff, settledBy, settleIfDue } from './settlement.js';
import { nextState, stateColumns } from './state.js';
import { performVoid } from './voids.js';
import { withProcessor } from './with-processor.js';
import { processorKey } from '../processor/keys.js';

/** `POST /order/sales-return`: partial and repeated refunds of a completed payment. */

export { REFUND_MESSAGES, FULL_REFUND_VOID_AGE_MS } from './rules.js';

/** The values of the refund rules' parameters (rules.ts, settlement.ts) for a refund of `cents` at `at`. */
const refundValues = (cents: number, at: Date, cutoffMs: number) => ({
  cents,
  cutoff: lastCutoff(at, cutoffMs).toISOString(),
  voidAge: new Date(at.getTime() - FULL_REFUND_VOID_AGE_MS).toISOString(),
});

/**
 * The refund itself, guarded in its own UPDATE: the original must be a completed payment with
 * `cents` left to refund, and not a full refund due as a void (the 24-hour rule). One statement
 * takes the row lock, flags the original settled when the cutoff says so (refunds are allowed
 * settled or not; lists then show it), raises its refunded balance, writes the Refund record and
 * `payment.refund`; then the processor refunds, the row lock still held. Null when the guard
 * refused: the caller finds out why under the lock.
 */
async function writeRefund(
  q: Queryable,
  ctx: Pick<Ctx, 'settlementCutoffMs' | 'processor' | 'op' | 'outbox'>,
  merchant: Merchant,
  input: RefundInput,
  at: Date,
): Promise<{ message: string; data: MoneyRecord } | null> {
  const r = { type: 'Refund' as const, amountCents: input.amount, netCents: -input.amount, at };
  const made = { id: newId.transaction(), gatewayRef: newId.gatewayRef() };
  const shown = toMoneyRecord(
    recordShown(
      made,
      { order_createdfrom: '', amount_cents: input.amount },
      { ...r, originalId: input.transaction_id },
    ),
  );
  const data = {
    merchant_id: merchant.id,
    transaction_id: made.id,
    Status: 'Success',
    // The spec's event names the refund record here and the original in parent_transaction_id.
    linked_txn_id: made.id,
    parent_transaction_id: input.transaction_id,
    sales_id: made.id,
    amount: amountNumber(input.amount),
    txn_id: shown.txn_id,
    txn_date: shown.txn_date,
    type: 'Refund',
  } satisfies Omit<EventData['payment.refund'], 'order_createdfrom'>;
  const [row] = rowsOf<{ order_createdfrom: string; original_ref: string | null }>(
    await refundStatement.run(q, {
      ...refundValues(input.amount, at, ctx.settlementCutoffMs),
      at: at.toISOString(),
      txnId: input.transaction_id,
      merchantId: merchant.id,
      recordId: made.id,
      gatewayRef: made.gatewayRef,
      recordAmount: r.amountCents,
      recordNet: r.netCents,
      eventId: newId.event(),
      clientId: merchant.clientId,
      data: JSON.stringify(data),
    }),
  );
  if (!row) return null;
  await ctx.processor.refund({
    gatewayRef: row.original_ref ?? '',
    amountCents: input.amount,
    reference: made.id,
    idempotencyKey: processorKey(ctx.op.key, 'refund', made.id),
    deferTo: ctx.op.deferred,
  });
  outboxWritten(ctx, 'webhooks');
  return { message: 'Refund processed successfully.', data: { ...shown, order_createdfrom: row.order_createdfrom } };
}

/**
 * `writeRefund`'s statement, built once and prepared (building it with Drizzle on every request
 * cost more than running it); only the placeholders' values change per call.
 */
const refundStatement = preparedSql('remit_refund', () => {
  const ph = sql.placeholder;
  const cents = sql`${ph('cents')}::bigint`;
  const at = sql`${ph('at')}::timestamptz`;
  const rest = stateColumns(nextState('completed', 'refund_rest')!);
  const part = stateColumns(nextState('completed', 'refund')!);
  const last = refundTakesRest.sql();
  // SET reads the row as it was: the rules see the balance before this refund.
  const update = sql`update transactions set
      refunded_cents = refunded_cents + ${cents},
      is_status = case when ${last} then ${rest.isStatus}::smallint else ${part.isStatus}::smallint end,
      status = case when ${last} then ${rest.status}::text else ${part.status}::text end,
      settled = ${settledBy.sql()},
      settled_at = case when ${becomesSettled.sql()} then ${param.at('cutoff').sql()} else settled_at end,
      updated_at = ${at}
    where id = ${ph('txnId')} and merchant_id = ${ph('merchantId')}
      and ${refundGuard.allows.sql()} and not ${refundIsVoid.sql()}
    returning *`;
  const made = recordInsertSql(
    sql`u`,
    { type: 'Refund', amountCents: ph('recordAmount'), netCents: ph('recordNet') },
    { id: ph('recordId'), gatewayRef: ph('gatewayRef'), at },
  );
  const event = eventInsertSql(
    sql`u`,
    {
      id: ph('eventId'),
      clientId: ph('clientId'),
      merchantId: ph('merchantId'),
      type: 'payment.refund',
      data: ph('data'),
    },
    { order_createdfrom: sql`u.order_createdfrom` },
  );
  return sql`with u as (${update}), r as (${made}), e as (${event}) select r.order_createdfrom, u.gateway_ref as original_ref from r, u`;
});

/**
 * Refunds in one statement when the refund is allowed (the usual case); otherwise, in one
 * transaction holding the row lock, the spec's refusal, or the 24-hour rule's void, or (the
 * original changed in between) the refund after all.
 */
export async function refundTransaction(
  ctx: Ctx,
  merchant: Merchant,
  input: RefundInput,
): Promise<{ message: string; data: MoneyRecord }> {
  const done = await withProcessor(ctx, (q, ctx) =>
    writeRefund(q, ctx, merchant, input, merchantNow(ctx.now, merchant)),
  );
  if (done) return done;
  return inTransaction(ctx, async (tx, ctx) => {
    const locked = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!locked) throw notFound('transaction_not_found', REFUND_MESSAGES.notFound);
    const at = merchantNow(ctx.now, merchant);
    const values = refundValues(input.amount, at, ctx.settlementCutoffMs);
    const refusal = refundGuard.refusal(locked, values);
    if (refusal) throw refusal;
    if (refundIsVoid.eval(locked, values)) {
      // Refunds are allowed settled or not; the flag is brought up to date so lists show it.
      const row = await settleIfDue(tx, locked, at, ctx.settlementCutoffMs);
      const record = await performVoid(tx, ctx, merchant, row, at, {
        event: 'refund_as_void',
        eventType: 'payment.void',
      });
      return {
        message: 'Transaction voided successfully (a full refund after 24 hours is performed as a void).',
        data: toMoneyRecord(record),
      };
    }
    const refunded = await writeRefund(tx, ctx, merchant, input, at);
    if (!refunded) throw new Error(`refund of ${locked.id} refused by its guard although the locked row allows it`);
    return refunded;
  });
}
