import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FrameLocator, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkState, createLink, newPage, startWorld, YY, type World } from './support.js';

/**
 * The customer's moment of payment in the pay modal, in real Chromium: the merchant's own order id
 * (none of Remit's), the merchant's name once, the "Test mode" mark of a sandbox server on the
 * modal, the pay page and the add-card page, the Pay button in view in a 900 px high window and on
 * a phone, and a short confirmation before the modal closes (or none: `skip_confirmation`).
 * Screenshots in test-output/screenshots/moment-*.png.
 */
let w: World;
let shop: string;
let server: Server;

const shopHtml = (
  remit: string,
  key: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title>
<script src="${remit}/js/dynamic-launch.js?remit_merchant_public_key=${key}"></script></head>
<body><main aria-label="Acme shop"><h1>Acme shop</h1>
<p><button id="pay" type="button">Buy</button> <button id="fast" type="button">Buy, close at once</button> <button id="plain" type="button">Buy, no order id</button></p>
<p id="out" role="status"></p></main>
<script>
const out = document.getElementById('out');
const show = (p) => p.then((r) => (out.textContent = 'Payment ' + r.status), (e) => (out.textContent = 'Error: ' + e.message));
document.getElementById('pay').onclick = () => show(getPaymentPage(12.5, { order_id: 'A-1001' }));
document.getElementById('fast').onclick = () => show(getPaymentPage(12.5, { order_id: 'A-1002', skip_confirmation: true }));
document.getElementById('plain').onclick = () => show(getPaymentPage(12.5));
</script></body></html>`;

beforeAll(async () => {
  w = await startWorld();
  server = createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/' ? shopHtml(w.s.url, w.m.public_key) : 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  shop = `http://localhost:${(server.address() as AddressInfo).port}`;
  const id = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0].id;
  const put = await w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, allowed_origins: [shop] },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await w?.close();
  await new Promise((r) => server?.close(r));
});

// The modal's frame (a warm frame waiting hidden on the page has the same title).
const FRAME = 'dialog iframe[title="Payment form: Pay $12.50"]';
const bar = (page: Page) => page.getByRole('dialog', { name: 'Pay $12.50' }).locator('.bar');

async function payIn(f: FrameLocator) {
  await f.getByLabel('Card number').fill(CARDS.visa);
  await f.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await f.getByLabel('Security code').fill('123');
  await f.getByLabel('Name on card').fill('Ada Lovelace');
  await f.getByLabel('ZIP code').fill('94105');
  await f.getByRole('button', { name: 'Pay $12.50' }).click();
}

/** The Pay button's bottom edge in the top page's viewport, and the viewport's height. */
async function payButtonBottom(_page: Page, f: FrameLocator): Promise<number> {
  const box = (await f.getByRole('button', { name: 'Pay $12.50' }).boundingBox())!;
  return box.y + box.height;
}

describe("the customer's moment of payment", () => {
  it('the modal at 1280×900: Test mode marked, the order id is the merchant’s, the name once, Pay in view; a confirmation, then it closes', async () => {
    const page = await newPage(w, { viewport: { width: 1280, height: 900 } });
    await page.goto(shop);
    await page.locator('#pay').click();
    const f = page.frameLocator(FRAME);
    await f.getByLabel('Card number').waitFor();
    await expect.poll(() => bar(page).textContent()).toContain('Test mode');
    // The page in the modal: the merchant's order id, no id of Remit's, the name in the heading only.
    const heading = (await f.locator('h1').textContent())!;
    const name = heading.replace(/^Pay /, '');
    expect(name.length).toBeGreaterThan(0);
    const text = (await f.locator('body').textContent())!;
    expect(text.split(name).length - 1, 'the merchant name appears once').toBe(1);
    expect(text).toContain('A-1001');
    expect(text).not.toMatch(/ord_/);
    expect(await f.locator('header .test-mode').textContent()).toBe('Test mode');
    // The Pay button is in view without scrolling the 900 px window.
    expect(await payButtonBottom(page, f)).toBeLessThanOrEqual(900);
    await checkState(page, 'moment-modal-1280x900');

    await payIn(f);
    // Paid: the bar confirms it over the page's receipt, the modal still open.
    await expect.poll(() => bar(page).textContent(), { timeout: 15_000 }).toContain('Payment successful');
    await f.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await f.locator('.receipt').textContent()).toContain('A-1001');
    expect(await page.locator('#out').textContent()).toBe('');
    await checkState(page, 'moment-modal-confirmation');
    // Then it closes by itself and the page gets the payment.
    await page.locator('#out', { hasText: 'Payment succeeded' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('remit-pay').count()).toBe(0);
    await page.context().close();
  });

  it('skip_confirmation: the modal closes the moment the payment succeeds', async () => {
    const page = await newPage(w, { viewport: { width: 1280, height: 900 } });
    await page.goto(shop);
    await page.locator('#fast').click();
    const f = page.frameLocator(FRAME);
    await f.getByLabel('Card number').waitFor();
    let confirmed = false;
    const watch = setInterval(
      () =>
        void bar(page)
          .textContent({ timeout: 100 })
          .then(
            (t) => (confirmed ||= !!t?.includes('Payment successful')),
            () => 0,
          ),
      50,
    );
    await payIn(f);
    await page.locator('#out', { hasText: 'Payment succeeded' }).waitFor({ timeout: 15_000 });
    clearInterval(watch);
    expect(confirmed).toBe(false);
    expect(await page.locator('remit-pay').count()).toBe(0);
    await page.context().close();
  });

  it('without an order id from the merchant, the page shows none (not Remit’s link id)', async () => {
    const page = await newPage(w, { viewport: { width: 1280, height: 900 } });
    await page.goto(shop);
    await page.locator('#plain').click();
    const f = page.frameLocator(FRAME);
    await f.getByLabel('Card number').waitFor();
    const text = (await f.locator('body').textContent())!;
    expect(text).not.toMatch(/ord_/);
    expect(await f.locator('.summary dt', { hasText: 'Order' }).count()).toBe(0);
    await checkState(page, 'moment-modal-no-order');
    await page.context().close();
  });

  it('the pay page on a phone (390×844): Test mode marked, Pay in view without scrolling', async () => {
    const id = await createLink(w, { amount: '12.50' });
    const page = await newPage(w, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
    expect(await page.locator('header .test-mode').textContent()).toBe('Test mode');
    const box = (await page.getByRole('button', { name: 'Pay $12.50' }).boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(844);
    await checkState(page, 'moment-phone-390x844');
    await page.context().close();
  });

  it('the add-card page is marked Test mode too', async () => {
    const api = (path: string, json: object) =>
      w.s.http({
        method: 'POST',
        path: `/api/v1${path}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, ...json },
      });
    const add = await api('/customers/add', { first_name: 'Rita', last_name: 'Levi', email: 'rita@example.com' });
    expect((await api(`/customers/request-card/${add.body.data.customer_id}`, {})).status).toBe(200);
    const r = (await w.s.core.ctx.db.execute(
      sql`select id from pay_links where customer_id = ${add.body.data.customer_id} and kind = 'card_request'`,
    )) as unknown as {
      rows: Array<{ id: string }>;
    };
    const page = await newPage(w, { viewport: { width: 1280, height: 900 } });
    await page.goto(`${w.s.url}/pay/card/${r.rows[0]!.id}`);
    await page.getByText('Hi Rita').waitFor();
    expect(await page.locator('header .test-mode').textContent()).toBe('Test mode');
    await checkState(page, 'moment-add-card');
    await page.context().close();
  });
});
