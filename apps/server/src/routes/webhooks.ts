import { z } from 'zod';
import {
  DELIVERY_STATUSES,
  EVENT_TYPES,
  listDeliveries,
  parseListDeliveries,
  retryDelivery,
  updateWebhookUrl,
  updateWebhookUrlBody,
  type Ctx,
} from '@remit/core';
import type { App } from './types.js';

/** The webhook-management endpoints answer `status`, not `result`, as the spec writes. */
const statusError = z
  .object({
    status: z.literal(false),
    message: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    request_id: z.string(),
  })
  .describe('Error envelope (webhook management)');
const statusErrors = { 400: statusError, 401: statusError } as const;

const attempt = z.object({
  at: z.string(),
  status_code: z.number().nullable(),
  latency_ms: z.number(),
  error: z.string().nullable(),
});
const delivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  url: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(attempt),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});

const listQuery = z.object({
  event_type: z.enum(EVENT_TYPES).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  page: z.string().optional(),
  limit: z.string().optional(),
});

export function webhookRoutes(app: App, ctx: Ctx) {
  app.post(
    '/client/update-webhooks-url',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['webhooks'],
        summary: 'Register the webhook URL (replaces any earlier one); returns the signing secret',
        body: updateWebhookUrlBody,
        response: {
          200: z.object({ status: z.literal(true), message: z.string(), signing_secret: z.string() }),
          ...statusErrors,
        },
      },
    },
    async (req) => {
      const r = await updateWebhookUrl(ctx, req.client.id, req.body);
      return { status: true as const, message: 'Webhook URL updated successfully.', signing_secret: r.signing_secret };
    },
  );

  app.get(
    '/client/webhook-deliveries',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['webhooks'],
        summary: 'Webhook deliveries of this client, newest first (query string or JSON body)',
        querystring: listQuery,
        response: {
          200: z.object({
            status: z.literal(true),
            message: z.string(),
            data: z.object({
              deliveries: z.array(delivery),
              page: z.number(),
              limit: z.number(),
              totalCount: z.number(),
              totalPage: z.number(),
            }),
          }),
          ...statusErrors,
        },
      },
      // The query string is validated by the core together with a GET body.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req) => {
      const q = parseListDeliveries({ ...(req.query as object), ...((req.body as object | null) ?? {}) });
      const data = await listDeliveries(ctx.db, req.client.id, q);
      return { status: true as const, message: 'Webhook deliveries.', data };
    },
  );

  app.post(
    '/client/webhook-deliveries/:id/retry',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['webhooks'],
        summary: 'Send a webhook delivery again now',
        params: z.object({ id: z.string().max(100) }),
        response: {
          200: z.object({ status: z.literal(true), message: z.string(), data: delivery }),
          ...statusErrors,
          404: statusError,
        },
      },
    },
    async (req) => {
      const data = await retryDelivery(ctx.db, req.client.id, req.params.id);
      const message =
        data.status === 'disabled'
          ? 'The webhook URL is disabled (the receiver answered 410); the delivery goes out when the URL is registered again.'
          : 'Webhook delivery scheduled for retry.';
      return { status: true as const, message, data };
    },
  );
}
