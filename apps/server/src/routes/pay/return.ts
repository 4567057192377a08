import { z } from 'zod';
import { addressKey, returnToPayPage, type Ctx } from '@remit/core';
import { enforceRateLimit } from '../../plugins/rate-limit.js';
import type { App } from '../types.js';

const params = z.object({ linkId: z.string().max(100) });

/**
 * `GET /pay/{link_id}/return`: where the processor's 3-D Secure page sends the customer back. The
 * outcome is asked of the processor (issuer-challenge.ts); the query the processor appends
 * (`payment_intent`, `redirect_status`) is not trusted and not read. Then back to the pay page,
 * which shows the receipt, or the form again with `?declined=<code>` after a failed challenge.
 */
export function payReturnRoute(app: App, ctx: Ctx) {
  app.get('/pay/:linkId/return', { config: { public: true }, schema: { hide: true, params } }, async (req, reply) => {
    // Each return asks the processor: counted per address like the pay page's own calls.
    await enforceRateLimit(
      ctx,
      reply,
      app.rateLimits.payPerAddress,
      addressKey(req.ip),
      'Too many payment page requests from this address',
    );
    const outcome = await returnToPayPage(ctx, req.params.linkId);
    const page = `/pay/${encodeURIComponent(req.params.linkId)}`;
    return reply.redirect(
      typeof outcome === 'object' ? `${page}?declined=${encodeURIComponent(outcome.declined)}` : page,
      303,
    );
  });
}
