import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Helmet's headers on every response (the design's choice): `nosniff`, `X-Frame-Options:
 * SAMEORIGIN` and `frame-ancestors 'self'`, a same-origin CSP, no Referer, no cross-origin
 * embedding of API answers. Routes with their own policy set it on the reply and it wins: the pay
 * page (`routes/pay/headers.ts`, stricter CSP, its own framing) and the API reference at /docs
 * (swagger-ui's CSP with the hashes of its inline scripts).
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    global: true,
    // A self-hosted server may answer on plain http (localhost): upgrading its own /docs scripts
    // to https would break the page. HSTS still tells browsers that reached it over https.
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
}

/**
 * `Cache-Control: no-store` on every answer of the scope: API answers are one client's data, and
 * some carry a secret (credentials, onboarding's merchant_key, the owner call, the webhook
 * signing secret) that no browser or proxy cache may keep.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });
}
