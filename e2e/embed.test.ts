import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkState, createLink, newPage, startWorld, YY, type World } from './support.js';

/**
 * The page inside an iframe on a merchant's own origin (a second local HTTP server): it posts its
 * result to the link's embed_origin only, and answers no other origin.
 */
let w: World;
const merchants: Server[] = [];

/** A merchant site on its own port: `/?src=…` frames that URL and records every message it gets. */
async function merchantSite(): Promise<string> {
  const server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Merchant checkout</title></head><body>
<main><h1>Merchant checkout</h1><iframe title="Pay" src="${src.replace(/"/g, '&quot;')}" width="420" height="900"></iframe></main>
<script>window.received=[];addEventListener('message',e=>window.received.push({origin:e.origin,data:e.data}));</script>
</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  merchants.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
  for (const s of merchants) await new Promise((r) => s.close(r));
});

async function payInFrame(page: Page) {
  const f = page.frameLocator('iframe');
  await f.getByLabel('Card number').fill(CARDS.visa);
  await f.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await f.getByLabel('Security code').fill('123');
  await f.getByLabel('Name on card').fill('Ada Lovelace');
  await f.getByLabel('ZIP code').fill('94105');
  await f.getByRole('button', { name: /^Pay/ }).click();
  await f.getByRole('heading', { name: 'Payment successful' }).waitFor();
  return (await f.locator('dt:text("Transaction ID") + dd').textContent())!;
}
const received = (page: Page) => page.evaluate(() => (window as unknown as { received: unknown[] }).received);

describe('embedded in an iframe on another origin', () => {
  it('posts {type:"remit:payment", status:"succeeded", transaction_id} to the link’s embed_origin', async () => {
    const origin = await merchantSite();
    const id = await createLink(w, { amount: '21.00', embed_origin: origin });
    const page = await newPage(w);
    await page.goto(`${origin}/?src=${encodeURIComponent(`${w.s.url}/pay/${id}`)}`);
    await page.frameLocator('iframe').getByLabel('Card number').waitFor();
    await page.screenshot({ path: 'test-output/screenshots/iframe-form.png', fullPage: true });
    const txn = await payInFrame(page);
    await expect
      .poll(() => received(page))
      .toEqual([{ origin: w.s.url, data: { type: 'remit:payment', status: 'succeeded', transaction_id: txn } }]);
    await page.screenshot({ path: 'test-output/screenshots/iframe-receipt.png', fullPage: true });
    // Asked again by the embedding origin, it repeats the outcome.
    await page.evaluate(() =>
      document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'remit:query' }, '*'),
    );
    await expect.poll(async () => (await received(page)).length).toBe(2);
    await page.context().close();
  });

  it('framed by any other origin it posts nothing there and answers none of its messages', async () => {
    const recorded = await merchantSite();
    const other = await merchantSite();
    const id = await createLink(w, { amount: '22.00', embed_origin: recorded });
    const page = await newPage(w);
    await page.goto(`${other}/?src=${encodeURIComponent(`${w.s.url}/pay/${id}`)}`);
    await payInFrame(page);
    await page.evaluate(() =>
      document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'remit:query' }, '*'),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await received(page)).toEqual([]);
    await page.context().close();
  });

  it('in a popup it posts the result to its opener on the embed_origin, and closed when left unpaid', async () => {
    const origin = await merchantSite();
    const id = await createLink(w, { amount: '24.00', embed_origin: origin });
    const other = await createLink(w, { amount: '25.00', embed_origin: origin });
    const page = await newPage(w);
    await page.goto(`${origin}/?src=about:blank`);
    const [popup] = await Promise.all([
      page.context().waitForEvent('page'),
      page.evaluate((url) => void window.open(url, 'pay', 'width=480,height=800'), `${w.s.url}/pay/${id}`),
    ]);
    await popup.getByLabel('Card number').fill(CARDS.visa);
    await popup.getByLabel('Expiry date').fill(`12 / ${YY}`);
    await popup.getByLabel('Security code').fill('123');
    await popup.getByLabel('Name on card').fill('Ada Lovelace');
    await popup.getByLabel('ZIP code').fill('94105');
    await popup.getByRole('button', { name: 'Pay $24.00' }).click();
    await popup.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const txn = (await popup.locator('dt:text("Transaction ID") + dd').textContent())!;
    await expect
      .poll(() => received(page))
      .toEqual([{ origin: w.s.url, data: { type: 'remit:payment', status: 'succeeded', transaction_id: txn } }]);
    await popup.screenshot({ path: 'test-output/screenshots/popup-receipt.png' });
    await popup.close();

    const [second] = await Promise.all([
      page.context().waitForEvent('page'),
      page.evaluate((url) => void window.open(url, 'pay2', 'width=480,height=800'), `${w.s.url}/pay/${other}`),
    ]);
    await second.getByLabel('Card number').waitFor();
    // The form is server-rendered, so it shows before the script that listens for pagehide has run.
    await second.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
    // Navigated away unpaid, it says so. (A popup closed outright may be torn down before its last
    // message leaves when the opener lives in another process; the widget watches `popup.closed`.)
    await second.goto('about:blank');
    await expect.poll(async () => (await received(page)).length).toBe(2);
    expect((await received(page))[1]).toEqual({
      origin: w.s.url,
      data: { type: 'remit:payment', status: 'closed', transaction_id: null },
    });
    await page.context().close();
  });

  it('the frame’s own page passes axe inside the iframe', async () => {
    const origin = await merchantSite();
    const id = await createLink(w, { amount: '23.00', embed_origin: origin });
    const page = await newPage(w, { viewport: { width: 420, height: 900 } });
    await page.goto(`${w.s.url}/pay/${id}`);
    await checkState(page, 'embed-width-420');
    await page.context().close();
  });
});
