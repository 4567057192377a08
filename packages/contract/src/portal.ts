import * as z from 'zod';
import * as fields from './fields.js';
import { merchantWithKeySchema } from './merchants.js';
import { deliverySchema } from './webhooks.js';
import { advanceClockInput, sandboxMessageSchema } from './sandbox.js';
import { refundInput } from './orders.js';
import { transactionListItemSchema } from './transactions.js';

/**
 * The sandbox portal (`/portal`, sandbox only) and its calls under `/portal/api`. The page signs in
 * with the client's credentials once; afterwards an HttpOnly, SameSite=Strict session cookie
 * authorizes the calls, and every state-changing call carries the session's CSRF token in the
 * `X-CSRF-Token` header (`PORTAL_CSRF_HEADER`). Successful answers are the bare objects below;
 * failures are the usual `{result: false, message, code, errors?}` envelope.
 */

/** `POST /portal/api/credentials` (sandbox only, no authentication): new API credentials. */
export const credentialsSchema = z.object({ client_id: z.string(), secret_key: z.string() });
export type Credentials = z.infer<typeof credentialsSchema>;

export const PORTAL_COOKIE = 'remit_portal';
export const PORTAL_CSRF_HEADER = 'x-csrf-token';
/** A session ends this long after its last use, and in any case `PORTAL_SESSION_MAX_MS` after sign-in. */
export const PORTAL_SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const PORTAL_SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/** `POST /portal/api/session`: sign in. */
export const signInBody = z.object({
  client_id: z
    .string({ error: 'client_id is required' })
    .trim()
    .min(1, 'client_id is required')
    .max(100, 'must be at most 100 characters'),
  secret_key: z
    .string({ error: 'secret_key is required' })
    .trim()
    .min(1, 'secret_key is required')
    .max(200, 'must be at most 200 characters'),
});
export type SignInInput = z.infer<typeof signInBody>;

/** `GET|POST /portal/api/session`: who is signed in, and the token state-changing calls must carry. */
export const portalSessionSchema = z.object({ client_id: z.string(), csrf_token: z.string(), expires_at: z.string() });
export type PortalSession = z.infer<typeof portalSessionSchema>;

/** `GET /portal/api/merchants`: the client's merchants, newest first, each with its keys. */
export const portalMerchantsSchema = z.object({ merchants: z.array(merchantWithKeySchema) });
export type PortalMerchants = z.infer<typeof portalMerchantsSchema>;
/** `POST /portal/api/merchants` answers the new merchant; `POST /portal/api/merchants/{id}/approve` the approved one. */
export const portalMerchantSchema = z.object({ merchant: merchantWithKeySchema });
export type PortalMerchant = z.infer<typeof portalMerchantSchema>;

export const portalMerchantParams = z.object({ merchant_id: z.string().max(100) });
export const portalTransactionParams = portalMerchantParams.extend({ transaction_id: z.string().max(100) });
export const portalDeliveryParams = z.object({ id: z.string().max(100) });
export const portalMessageParams = z.object({ id: z.string().max(100) });

/** `GET /portal/api/webhook`, `PUT /portal/api/webhook` `{webhook_url}`. */
export const portalWebhookSchema = z.object({
  webhook_url: z.string().nullable(),
  signing_secret: z.string().nullable(),
  /** The receiver answered 410: deliveries wait until the URL is set again. */
  disabled: z.boolean(),
});
export type PortalWebhook = z.infer<typeof portalWebhookSchema>;

/** A delivery with the body that was (or will be) POSTed. */
export const portalDeliverySchema = deliverySchema.extend({ request_body: z.string() });
export type PortalDelivery = z.infer<typeof portalDeliverySchema>;
export const portalDeliveriesSchema = z.object({ deliveries: z.array(portalDeliverySchema), totalCount: z.number() });
export type PortalDeliveries = z.infer<typeof portalDeliveriesSchema>;
export const portalTestEventSchema = z.object({ event_id: z.string() });

/** `GET /portal/api/messages[?merchant_id=]`: the sandbox inbox. */
export const portalMessagesSchema = z.object({ messages: z.array(sandboxMessageSchema), totalCount: z.number() });
export type PortalMessages = z.infer<typeof portalMessagesSchema>;

/** Actions on one transaction. `refund` takes an amount, as `POST /order/sales-return` does. */
export const PORTAL_TRANSACTION_ACTIONS = ['refund', 'void', 'capture', 'ach-approve', 'ach-decline'] as const;
export type PortalTransactionAction = (typeof PORTAL_TRANSACTION_ACTIONS)[number];
/**
 * `GET /portal/api/merchants/{id}/transactions`: the newest 50, each with `actions`, the portal's
 * own field: what the API accepts for it now, computed by the server from its state table (the
 * portal shows these buttons and no others).
 */
export const portalTransactionsSchema = z.object({
  transactions: z.array(transactionListItemSchema.extend({ actions: z.array(z.enum(PORTAL_TRANSACTION_ACTIONS)) })),
  total: z.number(),
});
export type PortalTransactions = z.infer<typeof portalTransactionsSchema>;
export type PortalTransaction = PortalTransactions['transactions'][number];

/** `POST /portal/api/merchants/{id}/pay-links`: a pay link; with an email the customer gets it (and later the receipt). */
export const portalPayLinkBody = z.object({
  amount: fields.amount(),
  email: fields.optionalNonBlank(fields.email()),
});
export type PortalPayLinkInput = z.input<typeof portalPayLinkBody>;
export const portalPayLinkSchema = z.object({ link_id: z.string(), pay_link: z.string() });
export type PortalPayLink = z.infer<typeof portalPayLinkSchema>;

export const portalTransactionActionParams = portalTransactionParams.extend({
  action: z.enum(PORTAL_TRANSACTION_ACTIONS),
});
export const portalRefundBody = refundInput.pick({ amount: true });
export type PortalRefundInput = z.input<typeof portalRefundBody>;

/** `POST /portal/api/merchants/{id}/advance-clock` `{hours}`; `POST …/settle`. */
export const portalClockBody = advanceClockInput.pick({ hours: true });
export type PortalClockInput = z.input<typeof portalClockBody>;

/** Every portal action answers what happened in a sentence, for the page's live region. */
export const portalDoneSchema = z.object({ message: z.string() });
export type PortalDone = z.infer<typeof portalDoneSchema>;
