import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbedPolicy } from '@remit/contract';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { verifyWebhook } from '@remit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../apps/server/src/cli.js';
import { newMerchant, type TestMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from './browser.js';
import { CARDS, SCREENSHOTS, YY } from './support.js';
import type { Browser, Page } from 'playwright-core';

/**
 * A merchant's page served with exactly the tag and policy of `GET /merchant/embed-policy`, in real
 * Chromium: the widgets load and the modal pays; an inline script and another party's script on the
 * page are blocked, and their reports reach Remit, are listed and sent as a webhook. Then
 * `remit check-page` passes that page and fails one with neither integrity nor CSP.
 */

let s: TestServer;
let m: TestMerchant;
let browser: Browser;
let rx: Receiver;
let secret: string;
let policy: EmbedPolicy;
let shop: string;
let foreign: string;
const servers: Server[] = [];

/** An HTTP server on loopback answering `pages[path]`; returns its origin (`host` names it). */
async function site(host: string, pages: (path: string) => { headers: Record<string, string>; body: string } | null) {
  const server = createServer((req, res) => {
    const page = pages(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(page ? 200 : 404, page?.headers ?? {});
    res.end(page?.body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const html = { 'content-type': 'text/html; charset=utf-8' };
const js = { 'content-type': 'text/javascript; charset=utf-8' };
/** The shop's own script (allowed by 'self'): binds the button, records what the policy blocks. */
const SHOP_JS = `window.blocked = [];
document.addEventListener('securitypolicyviolation', (e) => blocked.push(e.effectiveDirective + ' ' + e.blockedURI));
document.getElementById('pay').addEventListener('click', () =>
  getPaymentPage(12.5).then((r) => (document.getElementById('out').textContent = 'Payment ' + r.status)));`;
const shopPage = (tag: string, attacks: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Pinned shop</title><script src="/shop-early.js"></script>${tag}</head>
<body><main><h1>Pinned shop</h1><p><button id="pay" type="button">Pay $12.50</button></p><p id="out" role="status"></p></main>
${attacks ? `<script>window.inlineRan = true;</script><script src="${foreign}/skimmer.js"></script>` : ''}
<script src="/shop.js"></script></body></html>`;

beforeAll(async () => {
  s = await startTestServer({ workers: { webhooks: { pollMs: 20 } } });
  rx = await startReceiver();
  const auth = await s.credentials();
  secret = (
    await s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url: rx.url } })
  ).body.signing_secret;
  m = await newMerchant(s, { auth, business_name: 'Pinned Shop' });
  browser = await launchChromium();
  foreign = await site('127.0.0.1', (p) =>
    p === '/skimmer.js' ? { headers: js, body: 'window.skimmed = true;' } : null,
  );
  const res = await s.http({
    method: 'GET',
    path: `/api/v1/merchant/embed-policy?merchant_key=${encodeURIComponent(m.merchant_key)}`,
    auth,
  });
  policy = res.body.data;
  // localhost: another origin than Remit's (127.0.0.1) and the foreign script's.
  shop = await site('localhost', (p) => {
    const strict = { ...html, 'content-security-policy': policy.csp };
    if (p === '/') return { headers: strict, body: shopPage(policy.script_tag, true) };
    if (p === '/clean') return { headers: strict, body: shopPage(policy.script_tag, false) };
    // Neither integrity nor a policy: the plain address, as snippets before this release had it.
    if (p === '/unpinned')
      return {
        headers: html,
        body: shopPage(
          `<script src="${s.url}/js/dynamic-launch.js?remit_merchant_public_key=${m.public_key}"></script>`,
          false,
        ),
      };
    if (p === '/shop.js') return { headers: js, body: SHOP_JS };
    if (p === '/shop-early.js') return { headers: js, body: 'window.early = true;' };
    return null;
  });
  const widget = (
    await s.http({ method: 'GET', path: '/api/v1/widgets', auth, json: { merchant_key: m.merchant_key } })
  ).body.data[0].id;
  const put = await s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${widget}`,
    auth,
    json: { merchant_key: m.merchant_key, allowed_origins: [shop] },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await rx?.close();
  for (const x of servers) await new Promise((r) => x.close(r));
});

const reports = async () =>
  (
    await s.http({
      method: 'GET',
      path: `/api/v1/merchant/csp-reports?merchant_key=${encodeURIComponent(m.merchant_key)}&limit=100`,
      auth: m.auth,
    })
  ).body;

describe('a page served with exactly the policy and tag', () => {
  let page: Page;
  it('shows the widgets and pays through the modal', async () => {
    page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1024, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const scripts: string[] = [];
    page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(`${r.status()} ${r.url()}`));
    await page.goto(`${shop}/`);
    await page.waitForFunction(() => 'Remit' in window);
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    const frame = page.frameLocator('iframe[title="Payment form: Pay $12.50"]');
    await frame.getByLabel('Card number').fill(CARDS.visa);
    await frame.getByLabel('Expiry date').fill(`12 / ${YY}`);
    await frame.getByLabel('Security code').fill('123');
    await frame.getByLabel('Name on card').fill('Ada Lovelace');
    await frame.getByLabel('ZIP code').fill('94105');
    await page.screenshot({ path: join(SCREENSHOTS, 'saq-a-modal.png') });
    await frame.getByRole('button', { name: /^Pay/ }).click();
    await expect.poll(() => page.locator('#out').textContent(), { timeout: 30_000 }).toBe('Payment succeeded');
    await page.screenshot({ path: join(SCREENSHOTS, 'saq-a-paid.png') });
    expect(errors).toEqual([]);
    // The pinned loader, then the chunk it added (pinned too: a mismatch would not have run).
    expect(scripts.some((x) => x === `200 ${policy.loader_url}`)).toBe(true);
    expect(scripts.some((x) => /^200 .*\/js\/widgets\.[\w-]+\.js$/.test(x))).toBe(true);
    const chunk = await page.evaluate(() =>
      [...document.scripts].filter((x) => x.src.includes('/js/widgets.')).map((x) => [x.integrity, x.crossOrigin]),
    );
    expect(chunk).toEqual([[expect.stringMatching(/^sha384-/), 'anonymous']]);
    const txns = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions?merchant_key=${encodeURIComponent(m.merchant_key)}`,
      auth: m.auth,
    });
    expect(txns.body.data[0]).toMatchObject({ amount: '12.50', status: 'completed' });
  });

  it('blocks the inline and the foreign script, and nothing of Remit', async () => {
    expect(
      await page.evaluate(() => [!!(window as any).inlineRan, !!(window as any).skimmed, !!(window as any).early]),
    ).toEqual([false, false, true]);
    const blocked = await page.evaluate(() => (window as unknown as { blocked: string[] }).blocked);
    // The inline script ran before shop.js listened; the report still went out (below).
    expect(blocked.filter((b) => b.includes(s.url))).toEqual([]);
    await page.context().close();
  });

  it('their reports reach Remit, are listed, and come as merchant.csp_violation webhooks', async () => {
    await expect
      .poll(async () => (await reports()).data.map((r: { blocked_uri: string }) => r.blocked_uri).sort(), {
        timeout: 20_000,
      })
      .toEqual(expect.arrayContaining(['inline', `${foreign}/skimmer.js`]));
    const list = (await reports()).data as Array<Record<string, unknown>>;
    expect(list.find((r) => r.blocked_uri === `${foreign}/skimmer.js`)).toMatchObject({
      directive: 'script-src-elem',
      document_uri: `${shop}/`,
      remit_resource: false,
      disposition: 'enforce',
    });
    expect(list.find((r) => r.blocked_uri === 'inline')).toMatchObject({
      directive: 'script-src-elem',
      remit_resource: false,
    });
    expect(list.filter((r) => r.remit_resource)).toEqual([]);
    await rx.waitFor(
      () => rx.received.filter((r) => JSON.parse(r.body).event_type === 'merchant.csp_violation').length >= 2,
      20_000,
    );
    const sent = rx.received
      .map((r) => verifyWebhook(secret, r.headers, r.body))
      .filter((e) => e.event_type === 'merchant.csp_violation')
      .map((e) => e.data.blocked_uri)
      .sort();
    expect(sent).toEqual(['inline', `${foreign}/skimmer.js`].sort());
  });
});

describe('npm run remit -- check-page', () => {
  const cli = async (url: string, env: NodeJS.ProcessEnv = {}) => {
    let out = '';
    let err = '';
    const code = await runCli(
      ['check-page', url, '--public-key', m.public_key],
      { PUBLIC_URL: s.url, REMIT_DATA_DIR: mkdtempSync(join(tmpdir(), 'remit-check-')), ...env },
      { out: (t) => void (out += t), err: (t) => void (err += t) },
    );
    return { code, out, err };
  };

  it('passes the page served with exactly the policy and tag', async () => {
    const r = await cli(`${shop}/clean`);
    expect(r.out).toContain('The page meets the instructions.');
    expect(r.out).not.toContain('FAIL');
    expect(r.code).toBe(0);
  });

  it('fails a page with neither integrity nor CSP, naming both', async () => {
    const r = await cli(`${shop}/unpinned`);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'FAIL  loader pinned by integrity (this release, its versioned address): the loader has no integrity attribute',
    );
    expect(r.out).toContain('FAIL  Content-Security-Policy present: the page sends no Content-Security-Policy');
    expect(r.out).toMatch(/points failing: .*loader pinned by integrity.*Content-Security-Policy present/);
  });

  it('says so when there is no Chromium', async () => {
    const r = await cli(`${shop}/clean`, { REMIT_CHROMIUM: '/nonexistent/chromium' });
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'No Chromium found: install one at /usr/bin/chromium (apt-get install chromium) or set REMIT_CHROMIUM to its path.\n',
    );
  });
});
