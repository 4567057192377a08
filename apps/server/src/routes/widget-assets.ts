import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RemitError, type Ctx } from '@remit/core';
import { acceptedLanguages, dirOf, intlTag, pickLocale } from '@remit/contract/locales';
import type { WidgetLanguage } from '@remit/contract/widget-messages';
import { WIDGETS } from '@remit/contract/catalogue/widgets';
import { sendError } from '../plugins/errors.js';
import type { App } from './types.js';

/**
 * The embeddable widgets' scripts, loaded by merchant pages on other origins:
 * - `/js/dynamic-launch.js` (`packages/loader` build): a stable address, so cached briefly
 *   (5 minutes) and revalidated: a new release reaches pages within minutes;
 * - `/js/dynamic-launch.<version>.js`: the same bytes at the address of this release (the version
 *   is taken from their SHA-384), cached for a year: what a page pins with `integrity`;
 * - `/js/widgets.<hash>.js` (`packages/widgets` build): named by content, cached for a year;
 * - `/js/widget-messages/{locale}`: the widgets' messages in a language other than English (JSON).
 * `Cross-Origin-Resource-Policy: cross-origin` and `Access-Control-Allow-Origin: *` let any page load
 * them, in CORS mode too (`crossorigin`, which `integrity` needs); the key check is on the API.
 * Both carry an `ETag` (a revalidation of the loader is a 304) and are sent gzipped to browsers
 * that accept it (the size budgets are gzip sizes).
 */

export const DEFAULT_LOADER_DIST = fileURLToPath(new URL('../../../../packages/loader/dist', import.meta.url));
export const DEFAULT_WIDGETS_DIST = fileURLToPath(new URL('../../../../packages/widgets/dist', import.meta.url));
export const LOADER_CACHE = 'public, max-age=300, stale-while-revalidate=60';
export const CHUNK_CACHE = 'public, max-age=31536000, immutable';
const CHUNK_NAME = /^widgets\.[A-Za-z0-9_-]{6,32}\.js$/;
const LOADER_NAME = /^dynamic-launch\.([A-Za-z0-9_-]{16})\.js$/;

export interface WidgetAssetDirs {
  loaderDir?: string;
  widgetsDir?: string;
}

export interface Script {
  body: Buffer;
  gz: Buffer;
  etag: string;
  /** `sha384-…`, the value of a script tag's `integrity`. */
  integrity: string;
  /** The release's own name for it: 16 characters of the SHA-384 (base64url). */
  version: string;
}

/** A script with its gzip and ETag, remembered by content (a rebuilt loader is a new entry). */
const scripts = new Map<string, Script>();
async function readScript(file: string): Promise<Script> {
  const body = await readFile(file);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
  let s = scripts.get(etag);
  if (!s) {
    if (scripts.size > 50) scripts.clear();
    const sha384 = createHash('sha384').update(body).digest();
    const integrity = `sha384-${sha384.toString('base64')}`;
    const version = sha384.toString('base64url').slice(0, 16);
    scripts.set(etag, (s = { body, gz: gzipSync(body, { level: 9 }), etag, integrity, version }));
  }
  return s;
}

function sendScript(req: FastifyRequest, reply: FastifyReply, script: Script, cache: string) {
  reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', cache)
    .header('etag', script.etag)
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('access-control-allow-origin', '*');
  const match = req.headers['if-none-match'];
  if (match && match.split(/\s*,\s*/).some((t) => t.replace(/^W\//, '') === script.etag))
    return reply.status(304).send();
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
    return reply.header('content-encoding', 'gzip').send(script.gz);
  return reply.send(script.body);
}

const NOT_BUILT = 'The widget loader is not built: run npm run build.';

/** The built loader: its bytes, integrity and versioned name (`dynamic-launch.<version>.js`); 503 when not built. */
export async function builtLoader(loaderDir = DEFAULT_LOADER_DIST): Promise<Script> {
  return readScript(join(resolve(loaderDir), 'dynamic-launch.js')).catch(() => {
    throw new RemitError('unavailable', NOT_BUILT);
  });
}

export const widgetAssetRoutes =
  (dirs: WidgetAssetDirs = {}) =>
  (app: App, _ctx: Ctx) => {
    const loaderDir = resolve(dirs.loaderDir ?? DEFAULT_LOADER_DIST);
    const widgetsDir = resolve(dirs.widgetsDir ?? DEFAULT_WIDGETS_DIST);
    const config = { public: true } as const;

    app.get('/js/dynamic-launch.js', { config, schema: { hide: true } }, async (req, reply) => {
      let script;
      try {
        script = await readScript(join(loaderDir, 'dynamic-launch.js'));
      } catch {
        return sendError(req, reply, 503, 'unavailable', NOT_BUILT);
      }
      return sendScript(req, reply, script, LOADER_CACHE);
    });

    app.get<{ Params: { file: string } }>('/js/:file', { config, schema: { hide: true } }, async (req, reply) => {
      const notFound = () => sendError(req, reply, 404, 'asset_not_found', 'No such widget script.');
      // An earlier release's loader is not kept: its address is a 404, never other bytes under it.
      const version = LOADER_NAME.exec(req.params.file)?.[1];
      if (version) {
        const loader = await builtLoader(loaderDir).catch(() => null);
        return loader?.version === version ? sendScript(req, reply, loader, CHUNK_CACHE) : notFound();
      }
      if (!CHUNK_NAME.test(req.params.file)) return notFound();
      let script;
      try {
        script = await readScript(join(widgetsDir, req.params.file));
      } catch {
        return notFound();
      }
      return sendScript(req, reply, script, CHUNK_CACHE);
    });

    // The widgets' messages in the language a tag asks for (else the browser's Accept-Language, else
    // English): fetched by the widget chunk only for a language other than English.
    app.get<{ Params: { tag: string } }>(
      '/js/widget-messages/:tag',
      { config, schema: { hide: true } },
      async (req, reply) => {
        const locale = pickLocale(req.params.tag.slice(0, 100), acceptedLanguages(req.headers['accept-language']));
        const body: WidgetLanguage = { locale, intl: intlTag(locale), dir: dirOf(locale), messages: WIDGETS[locale] };
        return reply
          .header('cache-control', LOADER_CACHE)
          .header('vary', 'accept-language')
          .header('access-control-allow-origin', '*')
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(body);
      },
    );
  };
