// A merchant's browser test with Playwright and @remit/testing/playwright: the customer pays on the
// hosted pay page, passes a 3-D Secure challenge, and pays in the widget's modal on the shop's own
// page, by the labels a person reads. (docs/testing.md) Runs Chromium from CHROMIUM_PATH or /usr/bin/chromium.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxMerchant } from '@remit/testing';
import { complete3DS, payIn, payLink, testCards, widgetFrame } from '@remit/testing/playwright';

let sandbox: Sandbox;
let merchant: SandboxMerchant;
let browser: Browser;
let shop: Server;

beforeAll(async () => {
  sandbox = await startSandbox();
  merchant = await sandbox.createMerchant();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  // The shop's page with Remit's script tag, on an origin of its own.
  shop = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><html lang="en"><title>Shop</title>
<script src="${sandbox.url}/js/dynamic-launch.js?remit_merchant_public_key=${merchant.publicKey}"></script>
<button onclick="getPaymentPage(12.5)">Buy now</button></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
}, 180_000);
afterAll(async () => {
  await browser?.close();
  shop?.close();
  await sandbox?.stop();
});

async function newLink(amount: string): Promise<string> {
  const { clientId, secretKey } = sandbox.credentials;
  const res = await fetch(`${sandbox.url}/api/v1/pay-link`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${clientId}:${secretKey}`)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ merchant_key: merchant.merchantKey, amount, order_id: `order-${amount}` }),
  });
  return (await res.json()).data.payment_link;
}

async function page(): Promise<Page> {
  return (await browser.newContext()).newPage();
}

it('the customer pays a link on the hosted page; the payment.success webhook names it', async () => {
  const link = await newLink('19.99');
  const paid = await payLink(await page(), link, { card: testCards.success });
  expect(paid.status).toBe('succeeded');
  const event = await sandbox.webhooks.next('payment.success', { where: { transaction_id: paid.transactionId } });
  expect(event.data.amount).toBe(19.99);
});

it('a declined card shows why, and a 3-D Secure card pays once the challenge is passed', async () => {
  const p = await page();
  const declined = await payLink(p, await newLink('5.00'), { card: testCards.decline });
  expect(declined).toMatchObject({ status: 'declined', message: expect.stringMatching(/declined/i) });

  const challenged = await payLink(p, await newLink('30.00'), { card: testCards.threeDSecure });
  expect(challenged.status).toBe('challenge');
  expect((await complete3DS(p, { pass: true })).status).toBe('succeeded');
});

it("the customer pays in the widget's modal on the shop's page", async () => {
  const p = await page();
  await p.goto(`http://127.0.0.1:${(shop.address() as AddressInfo).port}/`);
  await p.getByRole('button', { name: 'Buy now' }).click();
  const paid = await payIn(widgetFrame(p), { card: testCards.success });
  expect(paid.status).toBe('succeeded');
  await sandbox.webhooks.next('payment.success', { where: { transaction_id: paid.transactionId } });
});
