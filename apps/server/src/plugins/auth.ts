import type { FastifyInstance } from 'fastify';
import { authenticateClient, type Client, type Ctx } from '@remit/core';

declare module 'fastify' {
  interface FastifyRequest {
    client: Client;
  }
}

/** HTTP Basic on every route of the scope, checked before the body is looked at. */
export function registerAuth(app: FastifyInstance, ctx: Ctx) {
  app.decorateRequest('client', null as unknown as Client);
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    req.client = await authenticateClient(ctx, req.headers.authorization);
  });
}
