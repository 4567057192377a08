import { readiness, type Ctx } from '@remit/core';
import { REMIT_VERSION } from '../version.js';
import type { App } from './types.js';

const probe = { public: true, quietLog: true } as const;

/**
 * Probes for process managers and load balancers: `/livez` the process runs (restart it if not),
 * `/readyz` it can serve now (send it traffic if so), `/healthz` the original probe, kept. `/livez`
 * also says which version runs (CHANGELOG.md), for an operator checking what was deployed.
 */
export function healthRoutes(app: App, ctx: Ctx) {
  // Answers only once the app is built, which is after migrations applied.
  app.get('/healthz', { config: probe, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/livez', { config: probe, schema: { hide: true } }, async () => ({ status: 'ok', version: REMIT_VERSION }));
  app.get('/readyz', { config: probe, schema: { hide: true } }, async (req, reply) => {
    const r = await readiness(ctx.db);
    if (r.ready) return { status: 'ok' };
    req.log.warn({ reason: r.reason, detail: r.detail }, 'not ready');
    return reply.code(503).send({ status: 'unavailable', reason: r.reason });
  });
}
