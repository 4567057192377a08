import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { sendError } from '../plugins/errors.js';
import { setAssetHeaders } from './pay/headers.js';
import type { App } from './types.js';

const ASSET_TYPES: Record<string, string> = {
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

/**
 * `GET <prefix>/*` answers the files of a Vite build's `assets/` folder (hashed names, cached for a
 * year) and a 404 `asset_not_found` for anything else, a path outside the folder included.
 */
export function builtAssetRoute(app: App, prefix: string, assetsDir: string, notFoundMessage: string) {
  const assets = resolve(assetsDir);
  app.get<{ Params: { '*': string } }>(
    `${prefix}/*`,
    { config: { public: true }, schema: { hide: true } },
    async (req, reply) => {
      const rel = req.params['*'];
      const file = resolve(assets, rel);
      const notFound = () => sendError(req, reply, 404, 'asset_not_found', notFoundMessage);
      if (!ASSET_PATH.test(rel) || rel.split('/').some((p) => p === '..') || !file.startsWith(assets + sep))
        return notFound();
      try {
        if (!(await stat(file)).isFile()) return notFound();
        const body = await readFile(file);
        setAssetHeaders(reply).type(ASSET_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
        return reply.send(body);
      } catch {
        return notFound();
      }
    },
  );
}
