import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';
import type { PayPageState } from '@remit/contract';
import { payPage, type Ctx } from '@remit/core';
import { sendError } from '../../plugins/errors.js';
import type { App } from '../types.js';
import { setAssetHeaders, setPageHeaders, type Framing } from './headers.js';

/**
 * The hosted pay page: `apps/pay`'s built `index.html` with the page's initial state injected,
 * answered with the status of what it shows, and its hashed assets under `/pay/assets/`.
 */

/** `<repo>/apps/pay/dist`, where `npm run build` puts the page. */
export const DEFAULT_PAY_DIST = fileURLToPath(new URL('../../../../pay/dist', import.meta.url));

/** Where the built page's `<head>` asks for its state. */
export const STATE_MARKER = '<!--remit-state-->';

export const NOT_BUILT_MESSAGE = 'The pay page is not built: run npm run build.';

/**
 * The state as an inert JSON script. `<` is written `\u003c` so no value can close the script
 * element or open a comment; U+2028/2029 are escaped for old parsers that end lines there.
 */
export function stateScript(state: PayPageState): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script id="remit-state" type="application/json">${json}</script>`;
}

export function injectState(html: string, state: PayPageState): string {
  const script = stateScript(state);
  // A function replacement: `$` sequences in the JSON stay literal.
  if (html.includes(STATE_MARKER)) return html.replace(STATE_MARKER, () => script);
  return html.replace('</head>', () => `${script}</head>`);
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Asset paths are file names (or a few folders of them) from the build: nothing else is looked up. */
const ASSET_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}\/){0,3}[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

export function payPageRoutes(app: App, ctx: Ctx, distDir: string = DEFAULT_PAY_DIST) {
  const dist = resolve(distDir);
  const assets = join(dist, 'assets');

  async function sendPage(reply: FastifyReply, id: string, purpose: 'pay' | 'card') {
    let html: string;
    try {
      html = await readFile(join(dist, 'index.html'), 'utf8');
    } catch {
      const framing: Framing = { env: ctx.env, allowedOrigins: [], embedOrigin: null };
      return setPageHeaders(reply, framing)
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(`${NOT_BUILT_MESSAGE} (no index.html in ${dist})\n`);
    }
    const page = await payPage(ctx, id, purpose);
    setPageHeaders(reply, { env: ctx.env, allowedOrigins: page.allowedOrigins, embedOrigin: page.embedOrigin });
    return reply.status(page.status).send(injectState(html, page.state));
  }

  const config = { public: true } as const;
  app.get<{ Params: { linkId: string } }>('/pay/:linkId', { config, schema: { hide: true } }, (req, reply) =>
    sendPage(reply, req.params.linkId, 'pay'),
  );
  app.get<{ Params: { token: string } }>('/pay/card/:token', { config, schema: { hide: true } }, (req, reply) =>
    sendPage(reply, req.params.token, 'card'),
  );

  app.get<{ Params: { '*': string } }>('/pay/assets/*', { config, schema: { hide: true } }, async (req, reply) => {
    const rel = req.params['*'];
    const file = resolve(assets, rel);
    const notFound = () => sendError(req, reply, 404, 'asset_not_found', 'No such pay page asset.');
    if (!ASSET_PATH.test(rel) || rel.split('/').some((p) => p === '..') || !file.startsWith(assets + sep)) return notFound();
    try {
      if (!(await stat(file)).isFile()) return notFound();
      const body = await readFile(file);
      setAssetHeaders(reply).type(TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
      return reply.send(body);
    } catch {
      return notFound();
    }
  });
}
