import type { FastifyInstance } from 'fastify';
import { isRemitError, receiveStripeEvent, type Ctx } from '@remit/core';

/**
 * `POST /stripe/webhooks`: Stripe's events (REMIT_PROCESSOR=stripe). The signature covers the exact
 * bytes Stripe sent, so this route alone keeps its JSON body as the raw text.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, ctx: Ctx) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_req, body, done) =>
    done(null, body),
  );
  app.post('/stripe/webhooks', { config: { public: true }, schema: { hide: true } }, async (req) => {
    const signature = req.headers['stripe-signature'];
    const raw = typeof req.body === 'string' ? req.body : '';
    try {
      const outcome = await receiveStripeEvent(ctx, raw, typeof signature === 'string' ? signature : undefined);
      return { received: true, ...outcome };
    } catch (err) {
      // One line for the operator: a refused event is a forgery, a clock apart, or Stripe sending what we cannot read.
      if (isRemitError(err) && err.status === 400)
        req.log.warn({ code: err.code }, `Stripe event refused: ${err.message}`);
      throw err;
    }
  });
}
