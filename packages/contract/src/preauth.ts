import * as z from 'zod';
import { amount, merchantKey, text, transactionId } from './fields.js';
import { envelope } from './envelope.js';

/** Preauthorizations: `POST /preauth/update`, `/preauth/capture`, `/preauth/void` (answers a money record). */

export const updatePreauthInput = z.object({
  merchant_key: merchantKey(),
  transaction_id: transactionId(),
  last_authorized_amount: amount(),
  new_authorized_amount: amount(),
  order_id: text(100),
});
export type UpdatePreauthInput = z.output<typeof updatePreauthInput>;
export type PreauthUpdateRequest = z.input<typeof updatePreauthInput>;

export const preauthIdInput = z.object({ merchant_key: merchantKey(), transaction_id: transactionId() });
export type PreauthIdInput = z.output<typeof preauthIdInput>;
export type PreauthIdRequest = z.input<typeof preauthIdInput>;

export const preauthUpdateResultSchema = z.object({
  Status: z.literal('Approved'),
  Account: z.string(),
  Brand: z.string(),
  AuthCode: z.string(),
  Authorized: z.string(),
  transaction_id: z.string(),
  orderid: z.string(),
});
export type PreauthUpdateResult = z.output<typeof preauthUpdateResultSchema>;
export const preauthUpdateResponseSchema = envelope(preauthUpdateResultSchema);

export const preauthCaptureResultSchema = z.object({
  Status: z.literal('Approved'),
  Account: z.string(),
  Brand: z.string(),
  AuthCode: z.string(),
  amount: z.string(),
  Authorized: z.number(),
  orderid: z.string(),
  transaction_id: z.string(),
  net_amount: z.number(),
});
export type PreauthCaptureResult = z.output<typeof preauthCaptureResultSchema>;
export const preauthCaptureResponseSchema = envelope(preauthCaptureResultSchema);
