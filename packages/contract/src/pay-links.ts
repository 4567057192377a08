import * as z from 'zod';
import * as fields from './fields.js';
import { originField } from './origins.js';
import { envelope } from './envelope.js';

/**
 * Pay links (`POST /pay-link`, `DELETE /pay-link/{linkId}`) and the field rules payment requests
 * share with them (requests.ts).
 */

export const ORDER_ID_MAX = 100;
export const INVOICE_NUMBER_MAX = 100;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

const optional = fields.optionalNonBlank;

export const orderId = () => fields.text(ORDER_ID_MAX);

export const invoiceNumber = () =>
  z
    .string()
    .trim()
    .max(INVOICE_NUMBER_MAX, `must be at most ${INVOICE_NUMBER_MAX} characters`)
    .regex(/^[A-Za-z0-9]+$/, 'must be letters and digits only (A-Z, a-z, 0-9)');

export const allowFlags = {
  allow_card: fields.flag().default(true),
  allow_ach: fields.flag().default(true),
};

/**
 * `POST /pay-link`. `order_id` is optional here (one is generated); `amount` is required. The
 * `…Fields` objects are the bodies without the allow-flag rule, for callers that pick or omit fields
 * (zod refuses `omit` on a refined object); apply `fields.requireAPaymentMethod` again after.
 */
export const payLinkFields = z.object({
  merchant_key: fields.merchantKey(),
  amount: fields.amount(),
  order_id: optional(orderId()),
  invoice_number: optional(invoiceNumber()),
  ...allowFlags,
  /** Our extension: the exact origin of the page that embeds the link; the pay page posts its result only there. */
  embed_origin: optional(originField()),
});
export const payLinkBody = payLinkFields.superRefine(fields.requireAPaymentMethod);
export type PayLinkInput = z.output<typeof payLinkBody>;

/** `DELETE /pay-link/{linkId}`. */
export const deletePayLinkBody = z.object({ merchant_key: fields.merchantKey() });
export type DeletePayLinkInput = z.output<typeof deletePayLinkBody>;

/** The spec's fields, and `link_id` (ours, as `/requests` answers it): the id `DELETE /pay-link/{linkId}` and the pay page take. */
export const payLinkResultSchema = z.object({
  order_id: z.string(),
  link_id: z.string(),
  payment_link: z.string(),
  sales_id: z.string(),
});
export type PayLinkResult = z.infer<typeof payLinkResultSchema>;
export const payLinkResponseSchema = envelope(payLinkResultSchema);
export type PayLinkRequest = z.input<typeof payLinkBody>;

export const deletePayLinkResponseSchema = z.object({
  result: z.literal(true),
  link_id: z.string(),
  message: z.string(),
});
export type DeletePayLinkResult = z.infer<typeof deletePayLinkResponseSchema>;

export const linkIdParams = z.object({ linkId: z.string().min(1).max(200) });
