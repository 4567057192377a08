import type { Ctx } from '@remit/core';
import type { App } from './types.js';
import { setPortalPageHeaders } from './portal/headers.js';

/** The front door of a production server: what answers here and where it is documented. */
export const HOME_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Remit</title></head>
<body><main><h1>Remit</h1><p>This is a Remit payments server. Its API is at <code>/api/v1</code>, documented at <a href="/docs">/docs</a>; <code>/healthz</code> says whether it is up.</p></main></body></html>
`;

/**
 * `GET /`: a browser is sent where it can do something (the sandbox portal, or a short page in
 * production); any other client gets where to go as JSON. `/favicon.ico` answers 204, so a
 * browser's request for it is not a 404 on every page.
 */
export function homeRoutes(app: App, ctx: Ctx) {
  const opts = { config: { public: true }, schema: { hide: true } } as const;
  app.get('/', opts, async (req, reply) => {
    if (!/\btext\/html\b/.test(req.headers.accept ?? '')) {
      return {
        name: 'Remit',
        env: ctx.env,
        api: '/api/v1',
        docs: '/docs',
        health: '/healthz',
        ...(ctx.env === 'sandbox' && { portal: '/portal' }),
      };
    }
    if (ctx.env === 'sandbox') return reply.redirect('/portal', 302);
    return setPortalPageHeaders(reply).send(HOME_HTML);
  });
  app.get('/favicon.ico', opts, async (_req, reply) =>
    reply.header('cache-control', 'public, max-age=86400').status(204).send(),
  );
}
