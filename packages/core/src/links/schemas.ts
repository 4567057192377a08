import { z } from 'zod';
import * as fields from '../fields.js';
import { originField } from '../widgets/origins.js';

/**
 * Request bodies of pay links, payment requests and customer authorization requests. Used by the
 * server routes as `schema.body` (and so in the OpenAPI document) and by the widget backend.
 */

export const ORDER_ID_MAX = 100;
export const INVOICE_NUMBER_MAX = 100;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

/** Clients often send "" or null for a field they do not use: both mean absent. */
const absentIfBlank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(absentIfBlank, schema.optional());

export const orderId = () => fields.text(ORDER_ID_MAX);

export const invoiceNumber = () =>
  z
    .string()
    .trim()
    .max(INVOICE_NUMBER_MAX, `must be at most ${INVOICE_NUMBER_MAX} characters`)
    .regex(/^[A-Za-z0-9]+$/, 'must be letters and digits only (A-Z, a-z, 0-9)');

const allowFlags = {
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

/** `POST /requests`: every field of the spec with its limits. */
export const paymentRequestFields = z.object({
  merchant_key: fields.merchantKey(),
  amount: fields.amount(),
  order_id: orderId(),
  phone_number: optional(fields.phone()),
  email: optional(fields.email()),
  name: optional(fields.text(NAME_MAX)),
  preauth: fields.flag().default(false),
  pass_fee: fields.flag().default(false),
  require_3ds: fields.flag().default(false),
  ...allowFlags,
  invoice_number: optional(invoiceNumber()),
  sub_merchant_key: optional(z.string().max(200, 'must be at most 200 characters')),
  discount: optional(fields.amount({ allowZero: true })),
  surcharge: optional(fields.amount({ allowZero: true })),
  tax: optional(fields.amount({ allowZero: true })),
  description: optional(fields.text(DESCRIPTION_MAX)),
  /** Our extension: the exact origin of the page that embeds the link; the pay page posts its result only there. */
  embed_origin: optional(originField()),
});
export const paymentRequestBody = paymentRequestFields.superRefine(fields.requireAPaymentMethod);
export type PaymentRequestInput = z.output<typeof paymentRequestBody>;

/** The customer authorization request, `POST /requests/{customerId}`. */
export const customerRequestBody = z
  .object({
    merchant_key: fields.merchantKey(),
    amount: fields.amount(),
    order_id: orderId(),
    isRequestCard: fields.flag().default(false),
    preauth: fields.flag().default(false),
    invoice_number: optional(invoiceNumber()),
    ...allowFlags,
  })
  .superRefine(fields.requireAPaymentMethod);
export type CustomerRequestInput = z.output<typeof customerRequestBody>;

/** customers.id is a Postgres `integer`: larger values cannot name a customer. */
export const customerIdParams = z.object({
  customerId: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a customer_id (a positive whole number)')
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, 'must be a customer_id (a positive whole number)'),
});

export const linkIdParams = z.object({ linkId: z.string().min(1).max(200) });
