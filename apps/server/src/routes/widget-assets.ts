import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ctx } from '@remit/core';
import { sendError } from '../plugins/errors.js';
import type { App } from './types.js';

/**
 * The embeddable widgets' scripts, loaded by merchant pages on other origins:
 * - `/js/dynamic-launch.js` (`packages/loader` build): a stable address, so cached briefly
 *   (5 minutes) and revalidated: a new release reaches pages within minutes;
 * - `/js/widgets.<hash>.js` (`packages/widgets` build): named by content, cached for a year.
 * `Cross-Origin-Resource-Policy: cross-origin` lets any page load them (the key check is on the API).
 */

export const DEFAULT_LOADER_DIST = fileURLToPath(new URL('../../../../packages/loader/dist', import.meta.url));
export const DEFAULT_WIDGETS_DIST = fileURLToPath(new URL('../../../../packages/widgets/dist', import.meta.url));
export const LOADER_CACHE = 'public, max-age=300, stale-while-revalidate=60';
export const CHUNK_CACHE = 'public, max-age=31536000, immutable';
const CHUNK_NAME = /^widgets\.[A-Za-z0-9_-]{6,32}\.js$/;

export interface WidgetAssetDirs {
  loaderDir?: string;
  widgetsDir?: string;
}

export const widgetAssetRoutes =
  (dirs: WidgetAssetDirs = {}) =>
  (app: App, _ctx: Ctx) => {
    const loaderDir = resolve(dirs.loaderDir ?? DEFAULT_LOADER_DIST);
    const widgetsDir = resolve(dirs.widgetsDir ?? DEFAULT_WIDGETS_DIST);
    const config = { public: true } as const;

    const script = (body: Buffer, cache: string) => ({ body, cache });
    const send = async (file: string, cache: string) => script(await readFile(file), cache);

    app.get('/js/dynamic-launch.js', { config, schema: { hide: true } }, async (req, reply) => {
      let out;
      try {
        out = await send(join(loaderDir, 'dynamic-launch.js'), LOADER_CACHE);
      } catch {
        return sendError(req, reply, 503, 'unavailable', 'The widget loader is not built: run npm run build.');
      }
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', out.cache)
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(out.body);
    });

    app.get<{ Params: { file: string } }>('/js/:file', { config, schema: { hide: true } }, async (req, reply) => {
      const notFound = () => sendError(req, reply, 404, 'asset_not_found', 'No such widget script.');
      if (!CHUNK_NAME.test(req.params.file)) return notFound();
      let out;
      try {
        out = await send(join(widgetsDir, req.params.file), CHUNK_CACHE);
      } catch {
        return notFound();
      }
      return reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', out.cache)
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(out.body);
    });
  };
