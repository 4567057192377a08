import { eq } from 'drizzle-orm';
import { errorMessage, type RefundInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { writeWithEvent } from '../events/outbox.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber } from '../money.js';
import { lockTransaction, recordValues, toMoneyRecord, type MoneyRecord, type TxnRow } from './records.js';
import { settleIfDue } from './settlement.js';
import { isPaymentType, nextState, stateColumns, stateOf } from './state.js';
import { performVoid } from './voids.js';

/** `POST /order/sales-return`: partial and repeated refunds of a completed payment. */

/** The spec's messages, from the error catalogue. */
export const REFUND_MESSAGES = {
  notFound: errorMessage('not_refundable'),
  overOriginal: errorMessage('amount_over_original'),
  overRemaining: errorMessage('amount_over_remaining'),
  alreadyRefunded: errorMessage('already_refunded'),
} as const;

/** DESIGN.md's 24-hour rule: a full-amount refund of an older payment is performed as a void. */
export const FULL_REFUND_VOID_AGE_MS = 24 * 3_600_000;


/** The spec's refusal for a locked row, in the order its Errors table implies; null when the refund may go ahead. */
function refundRefusal(row: TxnRow, cents: number) {
  const state = stateOf(row.isStatus);
  if (isPaymentType(row.type) && state === 'refunded') return invalid('already_refunded', REFUND_MESSAGES.alreadyRefunded);
  if (!isPaymentType(row.type) || nextState(state, 'refund') === null) {
    return invalid('not_refundable', REFUND_MESSAGES.notFound);
  }
  if (cents > row.amountCents) return invalid('amount_over_original', REFUND_MESSAGES.overOriginal);
  if (cents > row.amountCents - row.refundedCents) return invalid('amount_over_remaining', REFUND_MESSAGES.overRemaining);
  return null;
}

export async function refundTransaction(
  ctx: Ctx,
  merchant: Merchant,
  input: RefundInput,
): Promise<{ message: string; data: MoneyRecord }> {
  return ctx.db.transaction(async (tx) => {
    const locked = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!locked) throw notFound('transaction_not_found', REFUND_MESSAGES.notFound);
    const at = merchantNow(ctx.now, merchant);
    // Refunds are allowed settled or not; the flag is brought up to date so lists show it.
    const row = isPaymentType(locked.type) ? await settleIfDue(tx, locked, at, ctx.settlementCutoffMs) : locked;
    const cents = input.amount;
    const refusal = refundRefusal(row, cents);
    if (refusal) throw refusal;

    const fullAmount = cents === row.amountCents && row.refundedCents === 0;
    const completedAt = row.completedAt ?? row.createdAt;
    if (fullAmount && at.getTime() - completedAt.getTime() > FULL_REFUND_VOID_AGE_MS) {
      const record = await performVoid(tx, merchant, row, at, { event: 'refund_as_void', eventType: 'payment.void' });
      return { message: 'Transaction voided successfully (a full refund after 24 hours is performed as a void).', data: toMoneyRecord(record) };
    }

    const refunded = row.refundedCents + cents;
    const next = nextState('completed', refunded === row.amountCents ? 'refund_rest' : 'refund')!;
    const record = recordValues(row, { type: 'Refund', amountCents: cents, netCents: -cents, at });
    const shown = toMoneyRecord(record);
    // The refund record, the original's new balance and the event: one statement (the original
    // stays locked by the select above until the transaction commits).
    const update = tx
      .update(transactions)
      .set({ refundedCents: refunded, ...stateColumns(next), updatedAt: at })
      .where(eq(transactions.id, row.id));
    await writeWithEvent(tx, [tx.insert(transactions).values(record), update], {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: 'payment.refund',
      data: {
        merchant_id: merchant.id,
        transaction_id: record.id,
        Status: 'Success',
        // The spec's event names the refund record here and the original in parent_transaction_id.
        linked_txn_id: record.id,
        parent_transaction_id: row.id,
        sales_id: record.id,
        order_createdfrom: record.orderCreatedfrom,
        amount: amountNumber(cents),
        txn_id: shown.txn_id,
        txn_date: shown.txn_date,
        type: 'Refund',
      },
    });
    return { message: 'Refund processed successfully.', data: shown };
  });
}
