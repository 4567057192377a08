import * as z from 'zod';
import { amount, merchantKey, transactionId } from './fields.js';
import { envelope } from './envelope.js';

/** Voids and refunds: `POST /order/sales-void`, `POST /order/sales-return`. JSON or form bodies. */

export const voidInput = z.object({
  merchant_key: merchantKey(),
  transaction_id: transactionId(),
  sub_merchant_key: z.string().max(200).optional(),
  /** Shown in the spec's JSON form; a void always takes the whole remaining amount, so it is read and ignored. */
  amount: z.union([z.string().max(32), z.number()]).optional(),
});
export type VoidInput = z.output<typeof voidInput>;
export type VoidRequest = z.input<typeof voidInput>;

export const refundInput = z.object({
  merchant_key: merchantKey(),
  transaction_id: transactionId(),
  amount: amount(),
  sub_merchant_key: z.string().max(200).optional(),
});
export type RefundInput = z.output<typeof refundInput>;
export type RefundRequest = z.input<typeof refundInput>;

/** The void or refund record the money endpoints answer (and `/preauth/void`). */
export const moneyRecordSchema = z.object({
  sales_id: z.string(),
  transaction_id: z.string(),
  order_createdfrom: z.string(),
  amount: z.number(),
  txn_id: z.string(),
  txn_date: z.string(),
  linked_txn_id: z.string(),
  Status: z.literal('Success'),
  type: z.enum(['Void', 'Refund']),
});
export type MoneyRecord = z.output<typeof moneyRecordSchema>;
export const moneyRecordResponseSchema = envelope(moneyRecordSchema);
