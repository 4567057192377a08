import {
  deliveryIdParams,
  deliveryPageResponseSchema,
  deliveryRetryResponseSchema,
  listDeliveriesQuery,
  statusErrorEnvelopeSchema,
  statusErrorResponses,
  updateWebhookUrlBody,
  updateWebhookUrlResponseSchema,
} from '@remit/contract';
import { listDeliveries, parseListDeliveries, retryDelivery, updateWebhookUrl, type Ctx } from '@remit/core';
import type { App } from './types.js';
import { readCtx } from '../plugins/replica-reads.js';

/** The webhook-management endpoints answer `status`, not `result`, as the spec writes. */
export function webhookRoutes(app: App, ctx: Ctx) {
  app.post(
    '/client/update-webhooks-url',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['webhooks'],
        summary: 'Register the webhook URL (replaces any earlier one); returns the signing secret',
        body: updateWebhookUrlBody,
        response: { 200: updateWebhookUrlResponseSchema, ...statusErrorResponses },
      },
    },
    async (req) => {
      const r = await updateWebhookUrl(req.ctx, req.client.id, req.body);
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
        querystring: listDeliveriesQuery,
        response: { 200: deliveryPageResponseSchema, ...statusErrorResponses },
      },
      // The query string is validated by the core together with a GET body.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req) => {
      const q = parseListDeliveries({ ...(req.query as object), ...((req.body as object | null) ?? {}) });
      const data = await listDeliveries(readCtx(ctx, req).db, req.client.id, q);
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
        params: deliveryIdParams,
        response: { 200: deliveryRetryResponseSchema, ...statusErrorResponses, 404: statusErrorEnvelopeSchema },
      },
    },
    async (req) => {
      const data = await retryDelivery(req.ctx, req.client.id, req.params.id);
      const message =
        data.status === 'disabled'
          ? 'The webhook URL is disabled (the receiver answered 410); the delivery goes out when the URL is registered again.'
          : 'Webhook delivery scheduled for retry.';
      return { status: true as const, message, data };
    },
  );
}
