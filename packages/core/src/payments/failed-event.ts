import type { EventData } from '@remit/contract';
import { amountNumber } from '../money.js';
import type { Writer } from '../operation.js';
import { recordEvent } from '../webhooks/outbox.js';
import { declineCode } from './declines.js';

/**
 * `payment.failed` (our extension, docs/webhooks.md): a card the network declined or an ACH debit
 * the bank returned, whichever way it was paid (pay page, a stored customer's charge, a payment
 * request's link), in the same transaction as the decline is recorded.
 */

/** The code a bank return reports in `payment.failed`. */
export const ACH_RETURNED = 'ach_returned';

export interface FailedPayment {
  merchantId: string;
  clientId: string;
  /** The declined (or returned) transaction; absent when none is recorded (a Stripe link decline the page has not reported). */
  transactionId?: string;
  orderId: string | null;
  amountCents: number;
  /** A card's decline code (a processor's own becomes `card_declined`), or ACH_RETURNED. */
  code: string;
  message: string;
  method: 'card' | 'ach';
}

export function paymentFailedData(f: FailedPayment): EventData['payment.failed'] {
  return {
    ...(f.transactionId ? { transaction_id: f.transactionId } : {}),
    merchant_id: f.merchantId,
    order_id: f.orderId ?? '',
    amount: amountNumber(f.amountCents),
    code: f.method === 'ach' ? f.code : declineCode(f.code),
    message: f.message,
    method: f.method,
  };
}

export function recordPaymentFailed(w: Writer, f: FailedPayment): Promise<string> {
  return recordEvent(w, {
    clientId: f.clientId,
    merchantId: f.merchantId,
    type: 'payment.failed',
    data: paymentFailedData(f),
  });
}
