import * as z from 'zod';
import { verificationSchema } from './verification.js';

/**
 * Webhook events: the body Remit POSTs to the client's webhook URL, `{event_type, data}` plus the
 * event's `id` and `created_at` (docs/webhooks.md). Payloads of the spec's Events table, plus our
 * preauth.increment / decrement / charge / void. One union discriminated by `event_type`.
 */

const voidRecord = {
  merchant_id: z.string(),
  /** The void or refund record. */
  transaction_id: z.string(),
  linked_txn_id: z.string(),
  /** Same as transaction_id. */
  sales_id: z.string(),
  order_createdfrom: z.string(),
  amount: z.number(),
  txn_id: z.string(),
  txn_date: z.string(),
};

const preauthChange = z.object({
  merchant_id: z.string(),
  transaction_id: z.string(),
  order_id: z.string(),
  last_authorized_amount: z.number(),
  authorized_amount: z.number(),
});

/**
 * Our extension (docs/webhooks.md): a cardholder's dispute of a payment, as Stripe reports it
 * (`charge.dispute.created`, `.updated`, `.closed`). One shape for the three events.
 */
const dispute = z.object({
  merchant_id: z.string(),
  /** The disputed payment. */
  transaction_id: z.string(),
  /** Stripe's dispute id (`dp_…`). */
  dispute_id: z.string(),
  /** The disputed amount. */
  amount: z.number(),
  /** Stripe's reason, for example `fraudulent`, `product_not_received`. */
  reason: z.string(),
  /** Stripe's status: `warning_needs_response`, `needs_response`, `under_review`, …; closed: `won`, `lost`, `warning_closed`. */
  status: z.string(),
  /** ISO 8601 UTC: when evidence is due at Stripe, or null when none is asked for. */
  evidence_due_by: z.string().nullable(),
});

/**
 * Our extension (docs/webhooks.md "Refused by the processor"): a refund, void or capture Remit had
 * answered as done, whose processor call was refused later (reconciliation sent it again): its record
 * is `failed`. `reason` is the processor's answer.
 */
const refused = { Status: z.literal('Error'), reason: z.string() };

/**
 * Our extension (docs/webhooks.md): a payment the card network or the bank refused, or that
 * failed: a card decline (pay page, a stored customer's charge, a payment request), an ACH debit
 * returned. `transaction_id` names the declined or returned transaction when one was recorded.
 */
const paymentFailed = z.object({
  transaction_id: z.string().optional(),
  merchant_id: z.string(),
  order_id: z.string(),
  amount: z.number(),
  /** The decline's code: `card_declined`, `insufficient_funds`, `three_ds_failed`, …; `ach_returned` for a bank return. */
  code: z.string(),
  /** What the processor or bank said, for a person. */
  message: z.string(),
  method: z.enum(['card', 'ach']),
});

/** `data` of each event type. */
export const eventDataSchemas = {
  /** Our extension: sent on request from the sandbox portal ("send test event") to check a receiver. */
  'webhook.test': z.object({ client_id: z.string(), message: z.string() }),
  'payment.success': z.object({
    transaction_id: z.string(),
    merchant_id: z.string(),
    amount: z.number(),
    net_amount: z.number(),
    fee_amount: z.number(),
    order_id: z.string(),
    last_four: z.string(),
    brand: z.string(),
    /** The pay link's id, or '' when the payment came another way. */
    link_id: z.string(),
  }),
  'payment.failed': paymentFailed,
  'merchant.onboarding': z.object({
    merchant_key: z.string(),
    merchant_id: z.string(),
    business_name: z.string(),
    email: z.string(),
    public_key: z.string(),
  }),
  'merchant.approval': z.object({
    merchant_id: z.string(),
    business_name: z.string(),
    email: z.string(),
    company_id: z.string(),
  }),
  /** Our extension: what the processor needs from the merchant changed (docs/webhooks.md). */
  'merchant.verification': z.object({ merchant_id: z.string(), verification: verificationSchema }),
  'documents.signed': z.object({
    merchant_id: z.string(),
    business_name: z.string(),
    website: z.string(),
    email: z.string(),
    company_id: z.string(),
  }),
  'ach.update': z.object({
    merchant_id: z.string(),
    status: z.enum(['Approved', 'Declined']),
    /** The original ACH transaction. */
    tran_id: z.string(),
    message: z.enum(['Approved', 'Insufficient Funds']),
    /** The reversal record; only when Declined. */
    return_transaction_id: z.string().optional(),
  }),
  'payment.void': z.object({ ...voidRecord, type: z.literal('Void'), Status: z.enum(['Success', 'Error']) }),
  'payment.refund': z.object({
    ...voidRecord,
    type: z.literal('Refund'),
    Status: z.literal('Success'),
    /** The original transaction. */
    parent_transaction_id: z.string(),
  }),
  preauth: z.object({
    merchant_id: z.string(),
    /** The preauthorization transaction. */
    guid: z.string(),
    amount: z.number(),
    order_id: z.string(),
    /** 0 when no customer profile is linked. */
    customer_id: z.number(),
  }),
  'preauth.increment': preauthChange,
  'preauth.decrement': preauthChange,
  'preauth.charge': z.object({
    merchant_id: z.string(),
    transaction_id: z.string(),
    order_id: z.string(),
    amount: z.number(),
    net_amount: z.number(),
    fee_amount: z.number(),
  }),
  'preauth.void': z.object({ ...voidRecord, type: z.literal('Void'), Status: z.literal('Success') }),
  'dispute.created': dispute,
  'dispute.updated': dispute,
  'dispute.closed': dispute,
  /**
   * Our extension (docs/webhooks.md): the merchant's payment page blocked something under its
   * Content-Security-Policy. At most one per blocked address and merchant an hour.
   */
  'merchant.csp_violation': z.object({
    merchant_id: z.string(),
    /** The report (`csp_…`), as `GET /merchant/csp-reports` lists it. */
    report_id: z.string(),
    blocked_uri: z.string(),
    directive: z.string(),
    document_uri: z.string(),
    /** True when Remit's own script or frame was blocked: the snippet or the policy is wrong. */
    remit_resource: z.boolean(),
  }),
  'payment.refund.failed': z.object({
    ...voidRecord,
    type: z.literal('Refund'),
    ...refused,
    /** The original transaction, refundable again by this amount. */
    parent_transaction_id: z.string(),
  }),
  /** A void (`/order/sales-void`, a full refund performed as a void, `/preauth/void`); the original is as it was. */
  'payment.void.failed': z.object({ ...voidRecord, type: z.literal('Void'), ...refused }),
  /** A preauthorization's capture: the preauthorization is `failed`, nothing was taken. */
  'preauth.charge.failed': z.object({
    merchant_id: z.string(),
    transaction_id: z.string(),
    order_id: z.string(),
    amount: z.number(),
    ...refused,
  }),
} as const;

export type EventType = keyof typeof eventDataSchemas;
export type EventData = { [K in EventType]: z.infer<(typeof eventDataSchemas)[K]> };

export const EVENT_TYPES = Object.keys(eventDataSchemas) as [EventType, ...EventType[]];
export const eventTypeSchema = z.enum(EVENT_TYPES);

const event = <K extends EventType>(type: K) =>
  z.object({
    event_type: z.literal(type),
    data: eventDataSchemas[type],
    /** The event's id (`evt_…`), also the `webhook-id` header: the same on every retry. */
    id: z.string(),
    /** ISO 8601 UTC. */
    created_at: z.string(),
  });

/** A webhook body as Remit sends it. */
export const webhookEventSchema = z.discriminatedUnion('event_type', [
  event('webhook.test'),
  event('payment.success'),
  event('payment.failed'),
  event('merchant.onboarding'),
  event('merchant.approval'),
  event('merchant.verification'),
  event('documents.signed'),
  event('ach.update'),
  event('payment.void'),
  event('payment.refund'),
  event('preauth'),
  event('preauth.increment'),
  event('preauth.decrement'),
  event('preauth.charge'),
  event('preauth.void'),
  event('dispute.created'),
  event('dispute.updated'),
  event('dispute.closed'),
  event('merchant.csp_violation'),
  event('payment.refund.failed'),
  event('payment.void.failed'),
  event('preauth.charge.failed'),
]);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
/** The event of one type, e.g. `WebhookEventOf<'payment.refund'>`. */
export type WebhookEventOf<K extends EventType> = Extract<WebhookEvent, { event_type: K }>;
