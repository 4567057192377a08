import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The demo merchant sites, each on its own origin (its own port): the plain HTML shop (`shop/`),
 * the built React app (`dist/react`) and the built Vue app (`dist/vue`). HTML pages get the Remit
 * server's address and the public key written in (`{{REMIT_URL}}`, `{{REMIT_KEY}}`,
 * `{{REMIT_SCRIPT}}`); `?key=pk_…` on a page's address overrides the key.
 */
export interface DemoOptions {
  /** The running Remit server, e.g. `http://127.0.0.1:8080`. */
  remitUrl: string;
  /** The merchant public key used when a page's address has no `?key=`. */
  publicKey?: string;
  host?: string;
  /** 0 picks a free port. */
  ports?: { shop?: number; react?: number; vue?: number };
}
export interface Demo {
  shop: string;
  react: string;
  vue: string;
  close(): Promise<void>;
}

const demoDir = fileURLToPath(new URL('..', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};
const attr = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function site(root: string, opts: DemoOptions): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://demo');
    let file = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(404).end();
      return;
    }
    // A single-page app: any path that is not a file is the page.
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    if (!type.startsWith('text/html')) {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' }).end(readFileSync(file));
      return;
    }
    const key = url.searchParams.get('key') ?? opts.publicKey ?? '';
    const script = new URL('/js/dynamic-launch.js', opts.remitUrl);
    script.searchParams.set('remit_merchant_public_key', key);
    const html = readFileSync(file, 'utf8')
      .replaceAll('{{REMIT_URL}}', attr(opts.remitUrl.replace(/\/$/, '')))
      .replaceAll('{{REMIT_KEY}}', attr(key))
      .replaceAll('{{REMIT_SCRIPT}}', attr(script.href));
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(html);
  });
}

/** Starts the three sites; the React and Vue apps must be built (`npm run build -w @remit/demo`). */
export async function startDemo(opts: DemoOptions): Promise<Demo> {
  const host = opts.host ?? '127.0.0.1';
  const roots = { shop: join(demoDir, 'shop'), react: join(demoDir, 'dist/react'), vue: join(demoDir, 'dist/vue') };
  for (const [name, root] of Object.entries(roots)) {
    if (!existsSync(join(root, 'index.html')))
      throw new Error(`the ${name} demo is not built: run npm run build -w @remit/demo`);
  }
  const servers: Server[] = [];
  const listen = async (root: string, port = 0) => {
    const server = site(root, opts);
    servers.push(server);
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };
  try {
    return {
      shop: await listen(roots.shop, opts.ports?.shop),
      react: await listen(roots.react, opts.ports?.react),
      vue: await listen(roots.vue, opts.ports?.vue),
      close: () => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r())))).then(() => {}),
    };
  } catch (e) {
    for (const s of servers) s.close();
    throw e;
  }
}
