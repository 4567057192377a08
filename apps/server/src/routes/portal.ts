import { credentialsSchema } from '@remit/contract';
import { createCredentials, RemitError, type Ctx } from '@remit/core';
import type { App } from './types.js';

export function portalRoutes(app: App, ctx: Ctx) {
  app.post(
    '/portal/api/credentials',
    {
      config: { public: true },
      schema: {
        tags: ['sandbox'],
        summary: 'Create sandbox credentials (no authentication; sandbox only)',
        security: [],
        response: { 201: credentialsSchema },
      },
    },
    async (_req, reply) => {
      if (ctx.env !== 'sandbox') {
        throw new RemitError('sandbox_only', 'Credentials are made with `npm run remit -- credentials create` in production.');
      }
      return reply.status(201).send(await createCredentials(ctx));
    },
  );
}
