import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { build as esbuild } from 'esbuild';
import type { Page } from 'playwright-core';
import { build as vite } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippets } from '../apps/portal/src/snippets.js';
import { CARDS, newPage, SCREENSHOTS, startWorld, YY, type World } from './support.js';

/**
 * The portal's snippets as a newcomer pastes them, each on a site of its own origin: the script-tag
 * snippet into a bare HTML page, the React snippet into a one-line React app (bundled by esbuild),
 * the Vue snippet as the root component of a Vue app (built by Vite), against the built
 * @remit/react and @remit/vue. Each pays $10.00 with the test card and shows the payment in its table.
 */
let w: World;
let code: Record<string, string>;
const sites: Server[] = [];
const OUT = join(process.cwd(), 'test-output', 'snippets');

const PAGE = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Snippet shop</title>${head}</head><body><main>${body}</main></body></html>`;

/** Serves `dir` (index.html for `/`) on a port of its own: another origin than Remit's. */
async function serve(dir: string): Promise<string> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sites.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  w = await startWorld();
  code = Object.fromEntries(
    snippets({ origin: w.s.url, clientId: w.m.auth[0], secretKey: w.m.auth[1], merchantKey: w.m.merchant_key, publicKey: w.m.public_key, signingSecret: null }).map((s) => [s.id, s.code]),
  );
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'script'), { recursive: true });
  writeFileSync(join(OUT, 'script', 'index.html'), PAGE(code.script!));

  // React: the snippet is a component file; the app mounts it and nothing else.
  const react = join(OUT, 'react');
  mkdirSync(join(react, 'dist'), { recursive: true });
  writeFileSync(join(react, 'Checkout.tsx'), code.react!);
  writeFileSync(join(react, 'main.tsx'), `import { createRoot } from 'react-dom/client';\nimport { Checkout } from './Checkout';\ncreateRoot(document.getElementById('app')!).render(<Checkout />);\n`);
  await esbuild({
    entryPoints: [join(react, 'main.tsx')],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    // A React project's defaults (this repository's tsconfig says Preact).
    jsxImportSource: 'react',
    tsconfigRaw: {},
    outfile: join(react, 'dist', 'app.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(join(react, 'dist', 'index.html'), PAGE('<div id="app"></div>', '<script type="module" src="/app.js"></script>'));

  // Vue: the snippet is a single-file component, the app's root.
  const vueDir = join(OUT, 'vue');
  mkdirSync(vueDir, { recursive: true });
  writeFileSync(join(vueDir, 'Checkout.vue'), code.vue!);
  writeFileSync(join(vueDir, 'main.ts'), `import { createApp } from 'vue';\nimport Checkout from './Checkout.vue';\ncreateApp(Checkout).mount('#app');\n`);
  writeFileSync(join(vueDir, 'index.html'), PAGE('<div id="app"></div>', '<script type="module" src="./main.ts"></script>'));
  await vite({ root: vueDir, configFile: false, logLevel: 'error', plugins: [vue()], build: { outDir: 'dist', emptyOutDir: true } });
}, 120_000);
afterAll(async () => {
  await w?.close();
  for (const s of sites) await new Promise((r) => s.close(r));
});

async function payThrough(page: Page, name: string) {
  const rows = page.locator('#remit_complete_transactions tbody tr, [data-remit-widget="completed-transactions"] tbody tr');
  await expect.poll(() => rows.first().textContent()).toMatch(/No completed transactions yet\.|\$/);
  await page.getByRole('button', { name: 'Pay $10.00' }).click();
  const form = page.frameLocator('iframe[title^="Payment form"]');
  await form.getByLabel('Card number').fill(CARDS.visa);
  await form.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('ZIP code').fill('94105');
  await form.getByRole('button', { name: /^Pay/ }).click();
  const status = page.getByRole('status').filter({ hasText: /Paid|Error|closed/ });
  await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^Paid: txn_/);
  await expect.poll(() => rows.first().locator('td').allTextContents()).toEqual([expect.any(String), '$10.00', 'Visa •••• 4242', 'Completed']);
  await page.screenshot({ path: join(SCREENSHOTS, `snippet-${name}-paid.png`), fullPage: true });
}

describe("the portal's snippets, pasted as they are", () => {
  it('name the props the components take and the Remit server (baseUrl), never a publicKey prop', () => {
    expect(code.react).toContain('clientKey={clientKey}');
    expect(code.react).toContain(`const baseUrl = '${w.s.url}'`);
    expect(code.vue).toContain(':client-key="clientKey"');
    expect(code.vue).toContain(`const baseUrl = '${w.s.url}'`);
    for (const c of [code.react, code.vue]) expect(c).not.toMatch(/publicKey|public-key/);
  });

  for (const name of ['script', 'react', 'vue'] as const) {
    it(`${name}: the page pays $10.00 with the test card and its table shows the payment`, async () => {
      const site = await serve(join(OUT, name, name === 'script' ? '' : 'dist'));
      const page = await newPage(w);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(site);
      await payThrough(page, name);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});
