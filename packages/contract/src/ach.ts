import * as z from 'zod';
import { amount, merchantKey, text, transactionId } from './fields.js';
import { envelope } from './envelope.js';

/** ACH: the sandbox `POST /update-ach` and remote deposit capture `POST /merchant/remote_deposit_capture`. */

export const updateAchInput = z.object({
  merchant_key: merchantKey(),
  transaction_id: transactionId(),
  new_status: z.enum(['approved', 'declined'], { error: 'must be approved or declined' }),
});
export type UpdateAchInput = z.output<typeof updateAchInput>;
export type UpdateAchRequest = z.input<typeof updateAchInput>;

/** Largest accepted check image, each side. */
export const MAX_CHECK_IMAGE_BYTES = 10 * 1024 * 1024;

export const DEPOSIT_PARTS = ['amount', 'merchant_key', 'device', 'front_file', 'back_file'] as const;

/** The text parts of a deposit (the images are checked by content in core). */
export const depositFields = z.object({
  amount: amount(),
  merchant_key: merchantKey(),
  device: text(100),
});
export type DepositFields = z.output<typeof depositFields>;

export const depositResultSchema = z.object({
  transactionId: z.string(),
  amount: z.string().describe('decimal text, two places'),
});
export type RemoteDepositResult = z.infer<typeof depositResultSchema>;
export const depositResponseSchema = envelope(depositResultSchema);
