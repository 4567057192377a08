import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '@remit/core';

/** Whose writes a read must see: the API client, the merchant it acts for, the portal's client. */
function readersOf(req: FastifyRequest): Array<string | undefined> {
  const r = req as FastifyRequest & { merchant?: { id: string } | null; portalClientId?: string };
  return [req.client?.id, r.merchant?.id, r.portalClientId];
}

/**
 * The context for a read that may lag (a list, a single read, a report, a portal view): on a
 * replica that has replayed this client's and merchant's writes, else the primary (docs/scaling.md).
 * Money-moving and state-deciding reads never take it: they keep `ctx`.
 */
export function readCtx(ctx: Ctx, req: FastifyRequest): Ctx {
  if (!ctx.replicas) return ctx;
  const db = ctx.replicas.forReaders(readersOf(req));
  return db === ctx.db ? ctx : { ...ctx, db };
}

/**
 * Marks the writers of every request that may write (not GET or HEAD): their reads go to the primary
 * until a replica replays past it. Marked as the answer goes out and again once it went (a keyed
 * request commits in its onSend), so the mark is never before the commit.
 */
export function registerReplicaReads(app: FastifyInstance, ctx: Ctx) {
  const replicas = ctx.replicas;
  if (!replicas) return;
  const mark = (req: FastifyRequest) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') replicas.wrote(readersOf(req));
  };
  app.addHook('onSend', async (req, _reply, payload) => {
    mark(req);
    return payload;
  });
  app.addHook('onResponse', async (req) => mark(req));
}
