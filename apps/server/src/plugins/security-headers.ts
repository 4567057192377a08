import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's options (the design's choice): `nosniff`, `X-Frame-Options: SAMEORIGIN` and
 * `frame-ancestors 'self'`, a same-origin CSP, no Referer, no cross-origin embedding of API answers.
 * A self-hosted server may answer on plain http (localhost): upgrading its own /docs scripts to
 * https would break the page. HSTS still tells browsers that reached it over https.
 */
export const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
};

/**
 * What helmet's middleware does to a response with these options: the headers it sets, in order,
 * and those it removes. Nothing in them depends on the request, so they are computed once.
 */
export function helmetHeaders(options: Readonly<HelmetOptions> = HELMET_OPTIONS): {
  set: Array<[string, string]>;
  removed: string[];
} {
  const set: Array<[string, string]> = [];
  const removed: string[] = [];
  const res = {
    setHeader: (name: string, value: string) => void set.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => void (failed = err));
  if (failed) throw failed;
  return { set, removed };
}

/**
 * Helmet's headers on every response, set on the raw response as helmet itself does (so a route's
 * own `reply.header` wins, and the pay page can remove `X-Frame-Options`): routes with their own
 * policy set it on the reply: the pay page (`routes/pay/headers.ts`, stricter CSP, its own framing)
 * and the API reference at /docs (swagger-ui's CSP with the hashes of its inline scripts).
 * Computed once at start-up and applied by one synchronous hook: building them per request (what
 * @fastify/helmet does, parsing the CSP directives each time) cost server time (docs/benchmarks.md).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const { set, removed } = helmetHeaders();
  app.addHook('onRequest', (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const res = reply.raw;
    for (let i = 0; i < set.length; i++) res.setHeader(set[i]![0], set[i]![1]);
    for (let i = 0; i < removed.length; i++) res.removeHeader(removed[i]!);
    done();
  });
}

/**
 * `Cache-Control: no-store` on every answer of the scope: API answers are one client's data, and
 * some carry a secret (credentials, onboarding's merchant_key, the owner call, the webhook
 * signing secret) that no browser or proxy cache may keep.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook('onRequest', (_req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.header('cache-control', 'no-store');
    done();
  });
}
