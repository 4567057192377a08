import { desc, eq, sql } from 'drizzle-orm';
import type { EventData } from '@remit/contract';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { merchants, processorCalls, transactions } from '../db/schema.js';
import { amountNumber } from '../money.js';
import { inTransaction } from '../operation.js';
import { operationOf, REFUSABLE_OPERATIONS, type RefusableOperation } from '../processor/deferred.js';
import { markRefused, type KeptCall } from '../processor/unconfirmed.js';
import { recordEvent } from '../webhooks/outbox.js';
import { toMoneyRecord, type TxnRow } from './records.js';
import { nextState, stateColumns, stateOf, type PaymentEvent } from './state.js';

/**
 * A refund, void or capture Remit answered as done whose processor call was deferred (its answer
 * never came, processor/deferred.ts) and which the processor, asked again by reconciliation,
 * refused: what the record says is undone, so no one is told that money moved when it did not.
 *
 * | operation | its record                         | the original                                          | event                   |
 * |-----------|------------------------------------|-------------------------------------------------------|-------------------------|
 * | refund    | the Refund record: `failed`        | refundable again by the amount (fully refunded → completed) | `payment.refund.failed` |
 * | void      | the Void record: `failed`          | as before the void: completed, or a preauthorization held again | `payment.void.failed`   |
 * | capture   | the preauthorization: `failed`     | (itself)                                              | `preauth.charge.failed` |
 *
 * Amounts stay as they were asked; the status says it did not happen.
 */

/** One refused call: what it was for and why, as the operator's list and log show it. */
export interface Refusal {
  call_id: string;
  operation: RefusableOperation;
  merchant_id: string | null;
  /** The record now `failed`: the refund's or void's record, a capture's preauthorization (null: the call named none). */
  transaction_id: string | null;
  /** The payment refunded or voided (a capture: the preauthorization itself). */
  original_transaction_id: string | null;
  gateway_ref: string;
  /** What the call asked for (null: a cancel, the whole hold). */
  amount: number | null;
  /** The processor's answer. */
  cause: string;
  created_at: string;
  refused_at: string | null;
}

type Scope = Pick<Ctx, 'db' | 'op' | 'outbox'>;

const lockRow = async (q: Queryable, id: string): Promise<TxnRow | null> =>
  (await q.select().from(transactions).where(eq(transactions.id, id)).for('update'))[0] ?? null;

/**
 * Marks `call` refused and undoes what it was for, in one transaction, once: null when another pass
 * marked it first. A record no longer `completed` (or a call naming none, deferred before calls kept
 * their record) is left as it is: the call is still listed.
 */
export async function settleRefusedCall(ctx: Scope, call: KeptCall, cause: string): Promise<Refusal | null> {
  return inTransaction(ctx, async (tx, scoped) => {
    if (!(await markRefused(tx, call.id, cause))) return null;
    const operation = operationOf(call);
    const refusal: Refusal = {
      call_id: call.id,
      operation,
      merchant_id: null,
      transaction_id: call.reference,
      original_transaction_id: null,
      gateway_ref: call.gatewayRef,
      amount: call.amountCents === null ? null : amountNumber(call.amountCents),
      cause,
      created_at: call.createdAt.toISOString(),
      refused_at: new Date().toISOString(),
    };
    const record = call.reference ? await lockRow(tx, call.reference) : null;
    if (!record) return refusal;
    const original =
      operation === 'capture' ? record : record.linkedTxnId ? await lockRow(tx, record.linkedTxnId) : null;
    Object.assign(refusal, { merchant_id: record.merchantId, original_transaction_id: original?.id ?? null });
    if (!original || nextState(stateOf(record.isStatus), 'processor_refused') === null) return refusal;

    const at = new Date();
    await tx
      .update(transactions)
      .set({ ...stateColumns('failed'), updatedAt: at })
      .where(eq(transactions.id, record.id));
    const undo: PaymentEvent =
      operation === 'refund' ? 'refund_refused' : call.kind === 'cancel' ? 'preauth_void_refused' : 'void_refused';
    const back = operation === 'capture' ? null : nextState(stateOf(original.isStatus), undo);
    if (back) {
      const refunded = operation === 'refund' ? sql`${transactions.refundedCents} - ${record.amountCents}` : undefined;
      await tx
        .update(transactions)
        .set({ ...stateColumns(back), ...(refunded ? { refundedCents: refunded } : {}), updatedAt: at })
        .where(eq(transactions.id, original.id));
    }
    const [m] = await tx
      .select({ clientId: merchants.clientId })
      .from(merchants)
      .where(eq(merchants.id, record.merchantId));
    if (m) await recordRefusalEvent(scoped, m.clientId, operation, record, original, cause);
    return refusal;
  });
}

/** The client's event of a refusal: the record's own event's fields, `Status: "Error"` and the processor's reason. */
function recordRefusalEvent(
  w: Scope,
  clientId: string,
  operation: RefusableOperation,
  record: TxnRow,
  original: TxnRow,
  reason: string,
) {
  const base = { clientId, merchantId: record.merchantId };
  if (operation === 'capture') {
    const data: EventData['preauth.charge.failed'] = {
      merchant_id: record.merchantId,
      transaction_id: record.id,
      order_id: record.orderId ?? '',
      amount: amountNumber(record.amountCents),
      Status: 'Error',
      reason,
    };
    return recordEvent(w, { ...base, type: 'preauth.charge.failed', data });
  }
  const shown = { ...toMoneyRecord(record), merchant_id: record.merchantId, Status: 'Error' as const, reason };
  if (operation === 'void')
    return recordEvent(w, { ...base, type: 'payment.void.failed', data: { ...shown, type: 'Void' } });
  // As `payment.refund` names them: linked_txn_id the refund record, parent_transaction_id the original.
  return recordEvent(w, {
    ...base,
    type: 'payment.refund.failed',
    data: { ...shown, type: 'Refund', linked_txn_id: record.id, parent_transaction_id: original.id },
  });
}

/** Every refused call, newest first (`npm run remit -- payments refused`). */
export async function refusedCalls(ctx: Pick<Ctx, 'db'>, opts: { limit?: number } = {}): Promise<Refusal[]> {
  const rows = await ctx.db
    .select({ call: processorCalls, record: transactions })
    .from(processorCalls)
    .leftJoin(transactions, eq(transactions.id, processorCalls.reference))
    .where(eq(processorCalls.status, 'refused'))
    .orderBy(desc(processorCalls.settledAt), desc(processorCalls.id))
    .limit(opts.limit ?? 1000);
  return rows.map(({ call, record }) => {
    const operation = operationOf(call);
    return {
      call_id: call.id,
      operation,
      merchant_id: record?.merchantId ?? null,
      transaction_id: call.reference,
      original_transaction_id: record ? (operation === 'capture' ? record.id : record.linkedTxnId) : null,
      gateway_ref: call.gatewayRef,
      amount: call.amountCents === null ? null : amountNumber(call.amountCents),
      cause: call.lastError ?? '',
      created_at: call.createdAt.toISOString(),
      refused_at: call.settledAt?.toISOString() ?? null,
    };
  });
}

/** How many calls the processor has refused, by operation (all processes, all time): the metric's value. */
export async function refusalCounts(db: Queryable): Promise<Record<RefusableOperation, number>> {
  const rows = await db
    .select({ kind: processorCalls.kind, returnFee: processorCalls.returnFee, n: sql<number>`count(*)::int` })
    .from(processorCalls)
    .where(eq(processorCalls.status, 'refused'))
    .groupBy(processorCalls.kind, processorCalls.returnFee);
  const out = Object.fromEntries(REFUSABLE_OPERATIONS.map((o) => [o, 0])) as Record<RefusableOperation, number>;
  for (const r of rows) out[operationOf(r)] += Number(r.n);
  return out;
}
