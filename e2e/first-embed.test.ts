import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { snippets } from '../apps/portal/src/snippets.js';
import { newMerchant, type TestMerchant } from '../apps/server/src/testing/fixtures.js';
import type { TestServer } from '../apps/server/src/testing/harness.js';
import { basicAuth, send } from '../apps/server/src/testing/http.js';
import { startProcess, type ServerProcess } from '../apps/server/src/testing/process.js';
import { launchChromium } from './browser.js';
import { CARDS, YY } from './support.js';

/**
 * The first embed, as a newcomer does it: the server started as `npm start` starts it (no
 * PUBLIC_URL, default HOST), the portal's script-tag snippet on a page of another port, the loader's address written
 * with `127.0.0.1` or with `localhost`. Either way the pay modal shows the form and the payment goes
 * through: the widget talks to the warm frame on the origin it loaded it from, whatever PUBLIC_URL says.
 */
export const FIRST_HOUR_SHOTS = '/tmp/first-hour';
mkdirSync(FIRST_HOUR_SHOTS, { recursive: true });

let server: ServerProcess;
let db: { url: string; drop(): Promise<void> } | null = null;
let dataDir: string;
let m: TestMerchant;
let browser: Browser;
let port: number;
const shops: Server[] = [];

/** A shop on its own port whose page is `html(remit)`, `remit` the loader's origin from `?remit=`. */
async function shop(html: (remit: string) => string): Promise<string> {
  const s = createServer((req, res) => {
    const remit = new URL(req.url ?? '/', 'http://x').searchParams.get('remit') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(remit));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  shops.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** The portal's own script-tag snippet (a pay button, its status, the table) with the loader at `remit`. */
const payPage = (key: string) => (remit: string) => {
  const tag = snippets({
    origin: remit,
    clientId: 'cl_…',
    secretKey: null,
    merchantKey: null,
    publicKey: key,
    signingSecret: null,
  }).find((s) => s.id === 'script')!;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main>${tag.code}</main></body></html>`;
};

beforeAll(async () => {
  db = testDbKind === 'postgres' ? await createTestDatabase() : null;
  dataDir = mkdtempSync(join(tmpdir(), 'remit-first-embed-'));
  server = await startProcess('apps/server/src/main.ts', {
    // The defaults of `npm start`: no PUBLIC_URL, HOST 127.0.0.1, a generated sandbox key.
    PUBLIC_URL: '',
    REMIT_ENCRYPTION_KEY: '',
    REMIT_DATA_DIR: dataDir,
    DATABASE_URL: db?.url ?? '',
  });
  port = Number(new URL(server.base).port);
  // newMerchant needs only these two of a test server.
  const s = {
    http: ({ path, auth, ...rest }) =>
      send({
        ...rest,
        url: `${server.base}${path}`,
        headers: auth ? { authorization: basicAuth(auth[0], auth[1]) } : {},
      }),
    credentials: async () => {
      const r = await send<{ client_id: string; secret_key: string }>({
        method: 'POST',
        url: `${server.base}/portal/api/credentials`,
      });
      return [r.body.client_id, r.body.secret_key];
    },
  } as Pick<TestServer, 'http' | 'credentials'> as TestServer;
  m = await newMerchant(s);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
  for (const s of shops) await new Promise((r) => s.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

async function fresh(): Promise<Page> {
  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1024, height: 800 } });
  return ctx.newPage();
}

const FORM = 'iframe[title="Payment form: Pay $10.00"]';

async function payInModal(page: Page) {
  const f = page.frameLocator(FORM);
  await f.getByLabel('Card number').fill(CARDS.visa);
  await f.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await f.getByLabel('Security code').fill('123');
  await f.getByLabel('Name on card').fill('Ada Lovelace');
  await f.getByLabel('ZIP code').fill('94105');
  await f.getByRole('button', { name: /^Pay/ }).click();
  await expect.poll(() => page.locator('#remit-status').textContent(), { timeout: 15_000 }).toMatch(/^Paid: txn_/);
}

describe('the pay button with the default set-up', () => {
  it('links name an address the server answers on: PUBLIC_URL defaults to http://127.0.0.1:$PORT', async () => {
    const r = await send<any>({
      method: 'POST',
      url: `${server.base}/api/v1/pay-link`,
      headers: { authorization: basicAuth(...m.auth) },
      json: { merchant_key: m.merchant_key, amount: '5.00' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.payment_link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/pay/`));
  });

  for (const host of ['127.0.0.1', 'localhost']) {
    it(`the script tag loaded from ${host}: the warm frame shows the form in the modal, and the payment goes through`, async () => {
      const remit = `http://${host}:${port}`;
      const site = await shop(payPage(m.public_key));
      const page = await fresh();
      await page.goto(`${site}/?remit=${encodeURIComponent(remit)}`);
      // The pointer on the button warms the frame; the click then hands that frame the link.
      await page.getByRole('button', { name: 'Pay $10.00' }).hover();
      const preload = page.locator('iframe[title="Remit preload"]');
      await preload.waitFor({ state: 'attached' });
      const warm = (await (await preload.elementHandle())!.contentFrame())!;
      await warm.waitForLoadState('load');
      await warm.evaluate(() => ((window as unknown as { wasWarm: boolean }).wasWarm = true));
      await page.getByRole('button', { name: 'Pay $10.00' }).click();
      await page.frameLocator(FORM).getByLabel('Card number').waitFor({ timeout: 5_000 });
      // The warm frame itself took the link (no fallback navigation): the mark set before the click is there.
      const frame = (await (await page.locator(FORM).elementHandle())!.contentFrame())!;
      expect(frame.url()).toBe(`${remit}/pay/preload`);
      expect(await frame.evaluate(() => (window as unknown as { wasWarm?: boolean }).wasWarm)).toBe(true);
      await page.screenshot({ path: join(FIRST_HOUR_SHOTS, `modal-${host}.png`) });
      await payInModal(page);
      await page.screenshot({ path: join(FIRST_HOUR_SHOTS, `modal-${host}-paid.png`) });
      await page.context().close();
    });
  }

  it('a shell that never answers remit:open: the modal navigates the frame to the link, and the payment goes through', async () => {
    const remit = `http://localhost:${port}`;
    const site = await shop(payPage(m.public_key));
    const page = await fresh();
    // A deaf shell at /pay/preload (an old cached one, or a message lost): it loads, and ignores every message.
    await page.route(`${remit}/pay/preload`, (r) =>
      r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>deaf</title>' }),
    );
    await page.goto(`${site}/?remit=${encodeURIComponent(remit)}`);
    await page.getByRole('button', { name: 'Pay $10.00' }).hover();
    await page.locator('iframe[title="Remit preload"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Pay $10.00' }).click();
    await page.frameLocator(FORM).getByLabel('Card number').waitFor({ timeout: 5_000 });
    const frame = (await (await page.locator(FORM).elementHandle())!.contentFrame())!;
    expect(frame.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/pay/ord_`));
    await payInModal(page);
    await page.context().close();
  });
});
