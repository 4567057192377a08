import * as z from 'zod';
import * as fields from './fields.js';
import { originField } from './origins.js';
import { envelope } from './envelope.js';
import { allowFlags, DESCRIPTION_MAX, invoiceNumber, NAME_MAX, orderId } from './pay-links.js';

const optional = fields.optionalNonBlank;

/** Payment requests (`POST /requests`) and customer authorization requests (`POST /requests/{customerId}`). */

/** `POST /requests`: every field of the spec with its limits. */
export const paymentRequestFields = z.object({
  merchant_key: fields.merchantKey(),
  amount: fields.amount(),
  order_id: orderId(),
  phone_number: optional(fields.phone()),
  email: optional(fields.email()),
  name: optional(fields.shownText(NAME_MAX)),
  preauth: fields.flag().default(false),
  pass_fee: fields.flag().default(false),
  require_3ds: fields.flag().default(false),
  ...allowFlags,
  invoice_number: optional(invoiceNumber()),
  sub_merchant_key: optional(z.string().max(200, 'must be at most 200 characters')),
  discount: optional(fields.amount({ allowZero: true })),
  surcharge: optional(fields.amount({ allowZero: true })),
  tax: optional(fields.amount({ allowZero: true })),
  description: optional(fields.shownText(DESCRIPTION_MAX)),
  /** Our extension: the exact origin of the page that embeds the link; the pay page posts its result only there. */
  embed_origin: optional(originField()),
  locale: optional(fields.locale()),
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
    locale: optional(fields.locale()),
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

export const paymentRequestResultSchema = z.object({ order_id: z.string(), link_id: z.string(), pay_link: z.string() });
export type PaymentRequestResult = z.infer<typeof paymentRequestResultSchema>;
export const paymentRequestResponseSchema = envelope(paymentRequestResultSchema);
export type PaymentRequestRequest = z.input<typeof paymentRequestBody>;

export const customerRequestResultSchema = paymentRequestResultSchema.extend({ sales_id: z.string() });
export type CustomerRequestResult = z.infer<typeof customerRequestResultSchema>;
export const customerRequestResponseSchema = envelope(customerRequestResultSchema);
export type CustomerRequestRequest = z.input<typeof customerRequestBody>;

/** The optional `api_key` header of the customer authorization request: accepted and ignored. */
export const customerRequestHeaders = z.looseObject({ api_key: z.string().optional() });
