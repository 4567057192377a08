import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APPEARANCE_STYLESHEET, type PayPageState } from '@remit/contract';
import { addressKey, appearanceCss, appearanceFromQuery, payPage, type Ctx } from '@remit/core';
import type { App } from '../types.js';
import { builtAssetRoute } from '../built-assets.js';
import { rateLimited } from '../../plugins/rate-limit.js';
import { setPageHeaders, type Framing } from './headers.js';
import { preloadPage, setPreloadHeaders } from './preload.js';

/**
 * The hosted pay page: `apps/pay`'s built `index.html` with the page's initial state injected and
 * its markup server-rendered (so the form takes typing before any script runs), answered with the
 * status of what it shows, and its hashed assets under `/pay/assets/`. The template and the
 * renderer are read once per server, on the first page asked for.
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
  return jsonScript('remit-state', state);
}

function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script id="${id}" type="application/json">${json}</script>`;
}

export function injectState(html: string, state: PayPageState): string {
  const script = stateScript(state);
  // A function replacement: `$` sequences in the JSON stay literal.
  if (html.includes(STATE_MARKER)) return html.replace(STATE_MARKER, () => script);
  return html.replace('</head>', () => `${script}</head>`);
}

/** Where the built page's `#app` takes the server-rendered markup. */
export const APP_MARKER = '<!--remit-app-->';

/** `apps/pay/src/ssr.tsx`, as built into `dist/ssr/ssr.js`. */
export interface PayRenderer {
  renderPage(state: PayPageState, search: string, acceptLanguage: string | undefined): RenderedPage;
}

interface RenderedPage {
  html: string;
  locale: string;
  /** `rtl` for Arabic. */
  dir?: string;
  title: string;
  /** Money texts the render made, by their arguments: the page hydrates without starting Intl. */
  formatted?: Record<string, string>;
}

const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The built template with the state, the rendered markup, its language and title filled in; and,
 * for a language the page's script fetches as a chunk of its own, that chunk preloaded (the page
 * waits for it before it starts), so the browser fetches it beside the script, not after it.
 */
export function fillPage(
  template: string,
  state: PayPageState,
  page: RenderedPage,
  ...chunks: Array<string | undefined>
): string {
  const [before, after] = template.split(APP_MARKER) as [string, string | undefined];
  const formatted =
    page.formatted && Object.keys(page.formatted).length ? jsonScript('remit-formatted', page.formatted) : '';
  const preload = chunks.map((c) => (c ? `<link rel="modulepreload" href="/pay/assets/${c}">` : '')).join('');
  // The merchant's appearance, after the built styles it overrides: in the first paint, no flash of the default look.
  const sheet = state.page !== 'error' && state.view.merchant.stylesheet;
  const appearance = sheet ? `<link rel="stylesheet" href="${escapeText(sheet)}" data-appearance>` : '';
  const head = injectState(before, state)
    .replace('</head>', () => `${formatted}${preload}${appearance}</head>`)
    .replace(/<html lang="[^"]*"/, () => `<html lang="${page.locale}" dir="${page.dir ?? 'ltr'}"`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(page.title)}</title>`)
    .replace('<div id="app">', () => `<div id="app" data-locale="${page.locale}">`);
  return after === undefined ? head : head + page.html + after;
}

/**
 * The language chunks of the build (`{es: 'messages-es-<hash>.js'}`), and the add-card page's
 * (`'add-card'`), from the manifest Vite writes (`dist/.vite/manifest.json`, entries
 * `…/translations/<locale>/pay.json`, `src/add-card-page.tsx`); none without a manifest.
 */
export async function readLocaleChunks(dist: string): Promise<Record<string, string>> {
  let manifest: Record<string, { file: string }>;
  try {
    manifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'));
  } catch {
    return {};
  }
  const chunks: Record<string, string> = {};
  for (const [src, { file }] of Object.entries(manifest)) {
    const m = /(?:^|\/)translations\/([a-z-]+)\/pay\.json$|^src\/(add-card)-page\.tsx$/i.exec(src);
    if (m && file.startsWith('assets/')) chunks[m[1] ?? m[2]!] = file.slice('assets/'.length);
  }
  return chunks;
}

interface Built {
  template: string;
  renderer: PayRenderer;
  /** Chunk of each language the script fetches when used (readLocaleChunks). */
  localeChunks: Record<string, string>;
  /** CSP sources of the template's inlined `<style>` elements. */
  styleHashes: string[];
}

/** `<link rel="stylesheet" … href="/pay/assets/<file>.css">` as Vite writes it into index.html. */
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="\/pay\/assets\/([A-Za-z0-9._-]+\.css)"[^>]*>/g;

/**
 * The built stylesheets written into the template as `<style>` elements, each allowed by its
 * sha256 in the CSP: the first paint waits for no second request (the HTML is never cached, so
 * a returning customer downloads the few KB again; a first visit, the usual one, saves a round
 * trip). The files stay in `assets/` (the bundle budget counts them). A stylesheet that could
 * close its own element stays a link.
 */
export async function inlineStylesheets(
  template: string,
  assetsDir: string,
): Promise<{ template: string; styleHashes: string[] }> {
  const styleHashes: string[] = [];
  const links = [...template.matchAll(STYLESHEET_LINK)];
  const css = await Promise.all(links.map((l) => readFile(join(assetsDir, l[1]!), 'utf8')));
  let i = 0;
  const out = template.replace(STYLESHEET_LINK, (link) => {
    const text = css[i++]!;
    if (/<\/style/i.test(text)) return link;
    styleHashes.push(`sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`);
    return `<style>${text}</style>`;
  });
  return { template: out, styleHashes };
}

export function payPageRoutes(app: App, ctx: Ctx, distDir: string = DEFAULT_PAY_DIST) {
  const dist = resolve(distDir);
  const assets = join(dist, 'assets');
  // Loaded once; a failed load (not built yet) is tried again on the next request.
  let built: Promise<Built> | null = null;
  const load = () =>
    (built ??= Promise.all([
      readFile(join(dist, 'index.html'), 'utf8'),
      import(pathToFileURL(join(dist, 'ssr', 'ssr.js')).href) as Promise<PayRenderer>,
      readLocaleChunks(dist),
    ])
      .then(async ([template, renderer, localeChunks]) => ({
        renderer,
        localeChunks,
        ...(await inlineStylesheets(template, assets)),
      }))
      .catch((e: unknown) => {
        built = null;
        throw e;
      }));

  async function sendPage(req: FastifyRequest, reply: FastifyReply, id: string, purpose: 'pay' | 'card') {
    let page: Built;
    try {
      page = await load();
    } catch {
      const framing: Framing = { env: ctx.env, allowedOrigins: [], embedOrigin: null };
      return setPageHeaders(reply, framing)
        .status(503)
        .type('text/plain; charset=utf-8')
        .send(`${NOT_BUILT_MESSAGE} (no index.html or ssr/ssr.js in ${dist})\n`);
    }
    // Counted beside the lookup (no extra wait); past the limit the page is not shown.
    const { appearance } = req.query as { appearance?: unknown };
    const [decision, found] = await Promise.all([
      ctx.rateLimiter.consume(app.rateLimits.payPagesPerAddress, addressKey(req.ip)),
      payPage(ctx, id, purpose, typeof appearance === 'string' ? appearance : undefined),
    ]);
    if (!decision.allowed) {
      const refusal = rateLimited(reply, decision, 'Too many payment pages opened from this address');
      return setPageHeaders(reply, { env: ctx.env, allowedOrigins: [], embedOrigin: null })
        .status(429)
        .type('text/plain; charset=utf-8')
        .send(`${refusal.message}\n`);
    }
    const q = req.url.indexOf('?');
    const rendered = page.renderer.renderPage(
      found.state,
      q < 0 ? '' : req.url.slice(q),
      req.headers['accept-language'],
    );
    const entry = found.state.page === 'error' ? null : found.state.view.card_entry;
    setPageHeaders(reply, {
      env: ctx.env,
      allowedOrigins: found.allowedOrigins,
      embedOrigin: found.embedOrigin,
      styleHashes: page.styleHashes,
      stripeJsUrl: entry?.kind === 'stripe' ? entry.js_url : null,
    });
    // A card page's script fetches its page's chunk (app.tsx): preloaded beside it too.
    const pageChunk = found.state.page === 'card' ? page.localeChunks['add-card'] : undefined;
    return reply
      .status(found.status)
      .send(fillPage(page.template, found.state, rendered, page.localeChunks[rendered.locale], pageChunk));
  }

  const config = { public: true } as const;
  let preload: string | null = null;
  app.get('/pay/preload', { config, schema: { hide: true } }, async (_req, reply) => {
    let page: Built;
    try {
      page = await load();
    } catch {
      return reply.status(503).type('text/plain; charset=utf-8').send(`${NOT_BUILT_MESSAGE}\n`);
    }
    preload ??= preloadPage(page.template);
    return setPreloadHeaders(reply, page.styleHashes).send(preload);
  });
  app.get<{ Params: { linkId: string } }>('/pay/:linkId', { config, schema: { hide: true } }, (req, reply) =>
    sendPage(req, reply, req.params.linkId, 'pay'),
  );
  app.get<{ Params: { token: string } }>('/pay/card/:token', { config, schema: { hide: true } }, (req, reply) =>
    sendPage(req, reply, req.params.token, 'card'),
  );

  // The appearance stylesheet names its values in its query: answered from them alone, and cached.
  app.get(APPEARANCE_STYLESHEET, { config, schema: { hide: true } }, async (req, reply) => {
    const appearance = appearanceFromQuery(req.query as Record<string, string>);
    reply.header('content-type', 'text/css; charset=utf-8').header('x-content-type-options', 'nosniff');
    if (!appearance)
      return reply.status(400).send('/* not an appearance that reads: see PUT /widgets/{id} appearance */\n');
    return reply.header('cache-control', 'public, max-age=86400').send(appearanceCss(appearance, ':root,body'));
  });

  builtAssetRoute(app, '/pay/assets', assets, 'No such pay page asset.');
}
