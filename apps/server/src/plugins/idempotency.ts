import type { FastifyInstance, FastifyRequest } from 'fastify';
import { claimIdempotencyKey, completeIdempotencyKey, isRemitError, releaseIdempotencyKey, RemitError, type Ctx, type IdempotencyClaim } from '@remit/core';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
    idempotencyScope?: string;
  }
}

export interface IdempotencyOptions {
  /** Whose keys these are: the API client by default; the pay page scopes them by link id. */
  scope?: (req: FastifyRequest) => string | null;
  /** Every POST must carry a key (the pay page's pay calls). */
  required?: boolean;
  /**
   * A repeat that arrives while the first request still runs waits up to this long for its answer
   * and replays it (a double click gets the same receipt), instead of a 409.
   */
  waitForFirstMs?: number;
  /** A 400 (invalid input, nothing done) is not kept: the key is free again and nothing stays written. */
  forgetInvalid?: boolean;
  /** Bodies carry card or account numbers: the stored request fingerprint is a keyed digest, not a plain hash. */
  sensitiveBodies?: boolean;
}

const clientScope = (req: FastifyRequest) => req.client?.id ?? null;

async function claim(ctx: Ctx, scope: string, key: string, request: string, waitMs: number): Promise<IdempotencyClaim> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await claimIdempotencyKey(ctx, scope, key, request);
    } catch (e) {
      if (!isRemitError(e) || e.code !== 'idempotency_key_in_progress' || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** `Idempotency-Key` on POSTs: the first response is stored and replayed for 24 hours. */
export function registerIdempotency(app: FastifyInstance, ctx: Ctx, opts: IdempotencyOptions = {}) {
  const scopeOf = opts.scope ?? clientScope;
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST') return;
    const header = req.headers['idempotency-key'];
    const scope = scopeOf(req);
    if (typeof header !== 'string' || !scope) {
      if (opts.required) {
        throw new RemitError('invalid', 'idempotency_key_required', 'An Idempotency-Key header is required: one key per payment attempt.');
      }
      return;
    }
    const raw = `${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`;
    const request = opts.sensitiveBodies ? ctx.vault.mac(raw) : raw;
    const claimed = await claim(ctx, scope, header, request, opts.waitForFirstMs ?? 0);
    if (claimed.kind === 'replay') {
      reply.header('idempotent-replayed', 'true').status(claimed.statusCode).type('application/json');
      return reply.send(claimed.body);
    }
    req.idempotencyKey = header;
    req.idempotencyScope = scope;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.idempotencyKey || !req.idempotencyScope) return payload;
    if (opts.forgetInvalid && reply.statusCode === 400) {
      await releaseIdempotencyKey(ctx, req.idempotencyScope, req.idempotencyKey);
      return payload;
    }
    await completeIdempotencyKey(ctx, req.idempotencyScope, req.idempotencyKey, reply.statusCode, String(payload));
    return payload;
  });
}
