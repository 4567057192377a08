import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import vue from '@vitejs/plugin-vue';
import { build as esbuild } from 'esbuild';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { build as vite } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippets } from '../apps/portal/src/snippets.js';
import { CARDS, newPage, SCREENSHOTS, startWorld, YY, type World } from './support.js';

/**
 * The portal's snippets as a newcomer pastes them, each on a site of its own origin: the script-tag
 * snippet into a bare HTML page, the React snippet into a one-line React app (bundled by esbuild),
 * the Vue snippet as the root component of a Vue app (built by Vite), against the built
 * @remit/react and @remit/vue. Each pays $10.00 with the test card and shows the payment in its table.
 * The curl snippet runs in bash, and the webhook snippet runs with tsx and answers a signed delivery.
 * docs/embedding.md's React and Vue components run the same way, with only their key and server
 * address filled in.
 */
let w: World;
let code: Record<string, string>;
let unfilled: Record<string, string>;
const exec = promisify(execFile);
const root = join(import.meta.dirname, '..');

/** The first ```lang block after `heading` in docs/embedding.md, its key and Remit address filled in. */
function docsSnippet(heading: string, lang: string, key: string, url: string): string {
  const md = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
  const block = new RegExp(`\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(
    md.slice(md.indexOf(`\n${heading}\n`)),
  )![1]!;
  expect(block.match(/'pk_test_…'/g)).toHaveLength(1);
  expect(block.match(/'https:\/\/remit\.example\.com'/g)).toHaveLength(1);
  return block.replace("'pk_test_…'", `'${key}'`).replace("'https://remit.example.com'", `'${url}'`);
}

/** Bundles a React component file (`file` exporting `component`) into `dir`/dist with a one-line app mounting it. */
async function reactSite(dir: string, file: string, component: string, text: string) {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, `${file}.tsx`), text);
  writeFileSync(
    join(dir, 'main.tsx'),
    `import { createRoot } from 'react-dom/client';\nimport { ${component} } from './${file}';\ncreateRoot(document.getElementById('app')!).render(<${component} />);\n`,
  );
  await esbuild({
    entryPoints: [join(dir, 'main.tsx')],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    // A React project's defaults (this repository's tsconfig says Preact).
    jsxImportSource: 'react',
    tsconfigRaw: {},
    outfile: join(dir, 'dist', 'app.js'),
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  writeFileSync(
    join(dir, 'dist', 'index.html'),
    PAGE('<div id="app"></div>', '<script type="module" src="/app.js"></script>'),
  );
}

/** Builds a Vue single-file component as the root of an app in `dir`/dist. */
async function vueSite(dir: string, text: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'Checkout.vue'), text);
  writeFileSync(
    join(dir, 'main.ts'),
    `import { createApp } from 'vue';\nimport Checkout from './Checkout.vue';\ncreateApp(Checkout).mount('#app');\n`,
  );
  writeFileSync(
    join(dir, 'index.html'),
    PAGE('<div id="app"></div>', '<script type="module" src="./main.ts"></script>'),
  );
  await vite({
    root: dir,
    configFile: false,
    logLevel: 'error',
    plugins: [vue()],
    build: { outDir: 'dist', emptyOutDir: true },
  });
}
const sites: Server[] = [];
const OUT = join(process.cwd(), 'test-output', 'snippets');

const PAGE = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Snippet shop</title>${head}</head><body><main>${body}</main></body></html>`;

/** Serves `dir` (index.html for `/`) on a port of its own: another origin than Remit's. */
async function serve(dir: string): Promise<string> {
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
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
    snippets({
      origin: w.s.url,
      clientId: w.m.auth[0],
      secretKey: w.m.auth[1],
      merchantKey: w.m.merchant_key,
      publicKey: w.m.public_key,
      signingSecret: null,
    }).map((s) => [s.id, s.code]),
  );
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, 'script'), { recursive: true });
  writeFileSync(join(OUT, 'script', 'index.html'), PAGE(code.script!));

  const keys = {
    origin: w.s.url,
    clientId: w.m.auth[0],
    secretKey: null,
    merchantKey: w.m.merchant_key,
    publicKey: w.m.public_key,
    signingSecret: null,
  };
  unfilled = Object.fromEntries(snippets(keys).map((s) => [s.id, s.code]));
  // React: the snippet is a component file; the app mounts it and nothing else. Vue: the snippet is the app's root.
  await reactSite(join(OUT, 'react'), 'Checkout', 'Checkout', code.react!);
  await vueSite(join(OUT, 'vue'), code.vue!);
  await reactSite(join(OUT, 'docs-react'), 'Shop', 'Shop', docsSnippet('## React', 'tsx', w.m.public_key, w.s.url));
  await vueSite(join(OUT, 'docs-vue'), docsSnippet('## Vue', 'vue', w.m.public_key, w.s.url));
}, 120_000);
afterAll(async () => {
  await w?.close();
  for (const s of sites) await new Promise((r) => s.close(r));
});

async function payThrough(page: Page, name: string, button = 'Pay $10.00', amount = '$10.00') {
  const rows = page.locator(
    '#remit_complete_transactions tbody tr, [data-remit-widget="completed-transactions"] tbody tr',
  );
  await expect.poll(() => rows.first().textContent()).toMatch(/No completed transactions yet\.|\$/);
  await page.getByRole('button', { name: button }).click();
  const form = page.frameLocator('iframe[title^="Payment form"]');
  await form.getByLabel('Card number').fill(CARDS.visa);
  await form.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('ZIP code').fill('94105');
  await form.getByRole('button', { name: /^Pay/ }).click();
  const status = page.getByRole('status').filter({ hasText: /Paid|Error|closed/ });
  await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/^Paid: txn_/);
  await expect
    .poll(() => rows.first().locator('td').allTextContents())
    .toEqual([expect.any(String), amount, 'Visa •••• 4242', 'Completed']);
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

  const sites = [
    ['script', 'Pay $10.00', '$10.00'],
    ['react', 'Pay $10.00', '$10.00'],
    ['vue', 'Pay $10.00', '$10.00'],
    ['docs-react', 'Buy for $12.50', '$12.50'],
    ['docs-vue', 'Buy for $12.50', '$12.50'],
  ] as const;
  for (const [name, button, amount] of sites) {
    it(`${name}: the page pays ${amount} with the test card and its table shows the payment`, async () => {
      const site = await serve(join(OUT, name, name === 'script' ? '' : 'dist'));
      const page = await newPage(w);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(site);
      await payThrough(page, name, button, amount);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }

  it('curl: makes a pay link with the secret filled in, and with it read from $REMIT_SECRET_KEY', async () => {
    expect(code.curl).toContain(`-u "${w.m.auth[0]}:${w.m.auth[1]}"`);
    expect(unfilled.curl).toContain(`-u "${w.m.auth[0]}:$REMIT_SECRET_KEY"`);
    for (const [snippet, env] of [
      [code.curl!, {}],
      [unfilled.curl!, { REMIT_SECRET_KEY: w.m.auth[1] }],
    ] as const) {
      const { stdout } = await exec('bash', ['-c', snippet], { env: { ...process.env, ...env } });
      expect(JSON.parse(stdout)).toMatchObject({
        data: { payment_link: expect.stringMatching(new RegExp(`^${w.s.url}/pay/`)), link_id: expect.any(String) },
      });
    }
    // The shell's value is what is sent: a wrong one is refused.
    const { stdout } = await exec('bash', ['-c', unfilled.curl!], {
      env: { ...process.env, REMIT_SECRET_KEY: 'sk_test_wrong' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ result: false, code: expect.any(String) });
  });

  it('verify: the webhook snippet runs with tsx, answers a signed delivery 200 and a forged one 400', async () => {
    const dir = join(OUT, 'verify');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'webhooks.ts'), code.verify!);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const child = spawn(join(root, 'node_modules/.bin/tsx'), ['webhooks.ts'], {
      cwd: dir,
      env: { ...process.env, PORT: String(port), REMIT_WEBHOOK_SECRET: secret },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    try {
      const body = JSON.stringify({
        event_type: 'payment.success',
        data: { transaction_id: 'txn_1' },
        id: 'evt_1',
        created_at: new Date().toISOString(),
      });
      const at = new Date();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': 'evt_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      };
      const post = (signature: string) =>
        fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          headers: { ...headers, 'webhook-signature': signature },
          body,
        });
      await expect
        .poll(
          () =>
            post('v1,forged').then(
              (r) => r.status,
              () => 0,
            ),
          { timeout: 20_000 },
        )
        .toBe(400);
      const signed = await post(new Webhook(secret).sign('evt_1', at, body));
      expect([signed.status, await signed.text()]).toEqual([200, 'ok']);
      await expect.poll(() => out).toContain('payment.success');
    } finally {
      child.kill();
    }
  });
});
