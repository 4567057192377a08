import type { FastifyInstance } from 'fastify';
import { claimIdempotencyKey, completeIdempotencyKey, type Ctx } from '@remit/core';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

/** `Idempotency-Key` on POSTs: the first response is stored and replayed for 24 hours. */
export function registerIdempotency(app: FastifyInstance, ctx: Ctx) {
  app.addHook('preHandler', async (req, reply) => {
    const header = req.headers['idempotency-key'];
    if (req.method !== 'POST' || typeof header !== 'string' || !req.client) return;
    const request = `${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`;
    const claim = await claimIdempotencyKey(ctx, req.client.id, header, request);
    if (claim.kind === 'replay') {
      reply.header('idempotent-replayed', 'true').status(claim.statusCode).type('application/json');
      return reply.send(claim.body);
    }
    req.idempotencyKey = header;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.idempotencyKey) return payload;
    await completeIdempotencyKey(ctx, req.client.id, req.idempotencyKey, reply.statusCode, String(payload));
    return payload;
  });
}
