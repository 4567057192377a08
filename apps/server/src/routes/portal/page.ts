import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import type { Ctx } from '@remit/core';
import { builtAssetRoute } from '../built-assets.js';
import type { App } from '../types.js';
import { setPortalPageHeaders } from './headers.js';

/** `<repo>/apps/portal/dist`, where `npm run build` puts the portal. */
export const DEFAULT_PORTAL_DIST = fileURLToPath(new URL('../../../../portal/dist', import.meta.url));

/** The views the page has; each is an address of its own (`/portal/webhooks`), so reloads and links work. */
export const PORTAL_VIEWS = ['merchants', 'onboarding', 'webhooks', 'inbox', 'transactions', 'snippets'] as const;

const notFoundPage = (body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Not found</title></head>
<body><main><h1>Not found</h1><p>${body}</p></main></body></html>
`;

export const PORTAL_NOT_FOUND_HTML = notFoundPage(
  'There is no portal here. The sandbox portal exists only on a sandbox server (REMIT_ENV=sandbox); in production, make credentials with <code>npm run remit -- credentials create</code>.',
);
const NO_SUCH_VIEW_HTML = notFoundPage('No such portal page. <a href="/portal">Go to the portal</a>.');

/** `/portal` and its views (the built `apps/portal` page), `/portal/assets/*`; in production a 404 page for all of `/portal`. */
export function portalPageRoutes(app: App, ctx: Ctx, distDir: string = DEFAULT_PORTAL_DIST) {
  const dist = resolve(distDir);
  const assets = join(dist, 'assets');
  const config = { public: true } as const;
  const schema = { hide: true } as const;

  if (ctx.env !== 'sandbox') {
    const notFound = async (_req: unknown, reply: FastifyReply) =>
      setPortalPageHeaders(reply).status(404).send(PORTAL_NOT_FOUND_HTML);
    app.get('/portal', { config, schema }, notFound);
    app.get('/portal/*', { config, schema }, notFound);
    return;
  }

  const sendPage = async (reply: FastifyReply) => {
    try {
      const html = await readFile(join(dist, 'index.html'), 'utf8');
      return setPortalPageHeaders(reply).send(html);
    } catch {
      return setPortalPageHeaders(reply)
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(`The portal is not built: run npm run build. (no index.html in ${dist})\n`);
    }
  };
  app.get('/portal', { config, schema }, (_req, reply) => sendPage(reply));
  app.get<{ Params: { view: string } }>('/portal/:view', { config, schema }, async (req, reply) => {
    // `/portal/` is how many type the portal's address: the portal, not a missing view.
    if (req.params.view === '') {
      const query = req.url.indexOf('?');
      return reply.redirect(`/portal${query === -1 ? '' : req.url.slice(query)}`, 308);
    }
    if (!(PORTAL_VIEWS as readonly string[]).includes(req.params.view)) {
      return setPortalPageHeaders(reply).status(404).send(NO_SUCH_VIEW_HTML);
    }
    return sendPage(reply);
  });

  builtAssetRoute(app, '/portal/assets', assets, 'No such portal asset.');
}
