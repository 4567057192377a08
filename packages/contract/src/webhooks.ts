import * as z from 'zod';
import { intLike } from './fields.js';
import { statusEnvelope, statusEnvelopeSchema } from './envelope.js';
import { EVENT_TYPES } from './events.js';

/**
 * Webhook management: `POST /client/update-webhooks-url`, `GET /client/webhook-deliveries`,
 * `POST /client/webhook-deliveries/{id}/retry`. These answer the `status` envelope.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const updateWebhookUrlBody = z.object({
  webhook_url: z
    .string({ error: 'webhook_url is required: an absolute http(s) URL' })
    .trim()
    .min(1, 'webhook_url is required: an absolute http(s) URL')
    .max(MAX_WEBHOOK_URL_LENGTH, `webhook_url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
});
export type UpdateWebhookUrlInput = z.infer<typeof updateWebhookUrlBody>;
export type UpdateWebhooksUrlRequest = z.input<typeof updateWebhookUrlBody>;

export const updateWebhookUrlResponseSchema = statusEnvelopeSchema.extend({
  /** Standard Webhooks signing secret (`whsec_…`). */
  signing_secret: z.string(),
});
export type UpdateWebhooksUrlResult = z.infer<typeof updateWebhookUrlResponseSchema>;

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'disabled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const deliveryAttemptSchema = z.object({
  at: z.string(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
  /** A text-only excerpt of the receiver's answer (markup and control characters removed, at most 200 characters); absent on attempts recorded before it was kept. */
  response_body: z.string().nullable().optional(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  url: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(deliveryAttemptSchema),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

/** Parameters of the delivery log, from the query string or a GET JSON body (body wins). */
export const listDeliveriesQuery = z.object({
  event_type: z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }).optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }).optional(),
  page: intLike(0, 1_000_000).optional(),
  limit: intLike(1, 100).optional(),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;
export type ListDeliveriesRequest = z.input<typeof listDeliveriesQuery>;

export const deliveryPageSchema = z.object({
  deliveries: z.array(deliverySchema),
  page: z.number(),
  limit: z.number(),
  totalCount: z.number(),
  totalPage: z.number(),
});
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;
export const deliveryPageResponseSchema = statusEnvelope(deliveryPageSchema);
export type WebhookDeliveryPage = z.infer<typeof deliveryPageResponseSchema>;

export const deliveryIdParams = z.object({ id: z.string().max(100) });
export const deliveryRetryResponseSchema = statusEnvelope(deliverySchema);
export type DeliveryRetryResult = z.infer<typeof deliveryRetryResponseSchema>;
