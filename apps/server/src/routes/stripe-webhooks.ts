import type { FastifyInstance } from 'fastify';
import { receiveStripeEvent, type Ctx } from '@remit/core';

/**
 * `POST /stripe/webhooks`: Stripe's events (REMIT_PROCESSOR=stripe). The signature covers the exact
 * bytes Stripe sent, so this route alone keeps its JSON body as the raw text.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, ctx: Ctx) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));
  app.post('/stripe/webhooks', { config: { public: true }, schema: { hide: true } }, async (req) => {
    const signature = req.headers['stripe-signature'];
    const raw = typeof req.body === 'string' ? req.body : '';
    const outcome = await receiveStripeEvent(ctx, raw, typeof signature === 'string' ? signature : undefined);
    return { received: true, ...outcome };
  });
}
