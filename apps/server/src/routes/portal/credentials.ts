import { credentialsSchema } from '@remit/contract';
import { addressKey, createCredentials, RemitError, type Ctx } from '@remit/core';
import { enforceRateLimit } from '../../plugins/rate-limit.js';
import type { App } from '../types.js';

export function credentialRoutes(app: App, ctx: Ctx) {
  app.post(
    '/portal/api/credentials',
    {
      config: { public: true },
      onRequest: async (req, reply) =>
        enforceRateLimit(
          ctx,
          reply,
          app.rateLimits.credentialsPerAddress,
          addressKey(req.ip),
          'Too many credentials created from this address',
        ),
      schema: {
        tags: ['sandbox'],
        summary: 'Create sandbox credentials (no authentication; sandbox only)',
        security: [],
        response: { 201: credentialsSchema },
      },
    },
    async (_req, reply) => {
      // The secret key is in this answer: no cache may keep it.
      reply.header('cache-control', 'no-store');
      if (ctx.env !== 'sandbox') {
        throw new RemitError(
          'sandbox_only',
          'Credentials are made with `npm run remit -- credentials create` in production.',
        );
      }
      return reply.status(201).send(await createCredentials(ctx));
    },
  );
}
