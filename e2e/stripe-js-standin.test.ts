import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeEmulator, type StripeEmulator } from '../apps/server/src/testing/stripe-emulator.js';
import { launchChromium } from './browser.js';
import { checkState, newPage, YY, type World } from './support.js';

/**
 * The Stripe emulator's stand-in for Stripe.js, on its own in Chromium: a bare merchant page on a
 * tiny local server (its CSP allows the emulator's origin for script, frame and connect, nothing
 * else) loads `/v3/`, mounts the Payment Element, and confirms intents its server made with the SDK.
 */

let emu: StripeEmulator;
let stripe: Stripe;
let site: Server;
let siteUrl: string;
let browser: Browser;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<script src="{JS}"></script><script src="/app.js" defer></script></head>
<body><main><h1>Checkout</h1><form id="form"><div id="payment"></div><button id="pay">Pay</button></form>
<p id="change"></p><p id="result" role="status"></p></main></body></html>`;

const APP = `
const q = new URLSearchParams(location.search);
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
fetch('/intent?' + q).then((r) => r.json()).then(({ client_secret, publishable_key }) => {
  const stripe = Stripe(publishable_key);
  const elements = stripe.elements({ clientSecret: client_secret, appearance: { theme: 'stripe' }, locale: q.get('locale') || 'auto' });
  const element = elements.create('payment', { layout: 'tabs' });
  element.on('ready', () => document.body.setAttribute('data-ready', 'yes'));
  element.on('change', (e) => (document.getElementById('change').textContent = e.value.type + ': ' + (e.complete ? 'complete' : 'incomplete')));
  element.mount('#payment');
  document.getElementById('form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const confirm = q.get('kind') === 'setup' ? stripe.confirmSetup.bind(stripe) : stripe.confirmPayment.bind(stripe);
    const r = await confirm({ elements, redirect: 'if_required', confirmParams: { return_url: location.origin + '/return' } });
    const intent = r.paymentIntent || r.setupIntent;
    document.getElementById('result').textContent = r.error ? 'Error: ' + r.error.message : 'Status: ' + intent.status + ' ' + intent.id;
  });
});`;

beforeAll(async () => {
  emu = await startStripeEmulator({ refuseRawCardData: true });
  const url = new URL(emu.url);
  stripe = new Stripe(emu.secretKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  site = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://site.test');
    const csp = `default-src 'none'; script-src 'self' ${emu.url}; frame-src ${emu.url}; connect-src 'self' ${emu.url}; style-src 'self'; base-uri 'none'; form-action 'self'`;
    if (u.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
      return res.end(PAGE.replace('{JS}', emu.jsUrl));
    }
    if (u.pathname === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(APP);
    }
    if (u.pathname === '/intent') {
      const types = (u.searchParams.get('types') ?? 'card').split(',');
      const intent =
        u.searchParams.get('kind') === 'setup'
          ? await stripe.setupIntents.create({
              customer: (await stripe.customers.create({})).id,
              usage: 'off_session',
              allowed_payment_method_types: types as Stripe.SetupIntentCreateParams.AllowedPaymentMethodType[],
            })
          : await stripe.paymentIntents.create({
              amount: Number(u.searchParams.get('amount') ?? 1500),
              currency: 'usd',
              allowed_payment_method_types: types as Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType[],
              metadata: { remit_link: 'standin' },
            });
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ client_secret: intent.client_secret, publishable_key: emu.publishableKey }));
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => site?.close(() => r()));
  await emu?.close();
});

async function open(query: string): Promise<{ page: Page; frame: FrameLocator }> {
  const page = await newPage({ browser } as World);
  await page.goto(`${siteUrl}/?${query}`);
  await page.locator('body[data-ready=yes]').waitFor();
  return { page, frame: page.frameLocator('iframe[title="Secure payment input frame"]') };
}
async function fillCard(frame: FrameLocator, number: string) {
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill(`12 / ${YY}`);
  await frame.getByLabel('Security code').fill('123');
  await frame.getByLabel('ZIP code').fill('94105');
}
const result = (page: Page) => page.locator('#result');
async function paidIntent(page: Page, status: string): Promise<string> {
  await expect.poll(() => result(page).textContent()).toMatch(new RegExp(`^Status: ${status} `));
  return (await result(page).textContent())!.split(' ').at(-1)!;
}
async function noCspViolations(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
}

describe('the Stripe.js stand-in in Chromium', () => {
  it('4242: the card typed in the frame pays; the page only ever sees the PaymentMethod id', async () => {
    const { page, frame } = await open('types=card');
    await checkState(page, 'standin-card-empty');
    await fillCard(frame, '4242 4242 4242 4242');
    await expect.poll(() => page.locator('#change').textContent()).toBe('card: complete');
    await page.getByRole('button', { name: 'Pay' }).click();
    const pid = await paidIntent(page, 'succeeded');
    expect(emu.paymentIntents.get(pid)).toMatchObject({ status: 'succeeded', amount_received: 1500 });
    // The number went to the emulator with the publishable key only.
    const made = emu.requests.filter((r) => r.path === '/v1/payment_methods');
    expect(made.at(-1)).toMatchObject({
      auth: 'publishable',
      params: { type: 'card', card: { number: '4242424242424242' } },
    });
    await noCspViolations(page);
    await page.context().close();
  });

  it('incomplete fields: Stripe.js answers a validation error and marks the field', async () => {
    const { page, frame } = await open('types=card');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => result(page).textContent()).toBe('Error: Your card number is incomplete.');
    expect(await frame.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    await checkState(page, 'standin-card-invalid');
    await page.context().close();
  });

  it('4000000000000002: declined, and the same intent then pays with another card', async () => {
    const { page, frame } = await open('types=card');
    await fillCard(frame, '4000000000000002');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => result(page).textContent()).toBe('Error: Your card was declined.');
    await fillCard(frame, '4242424242424242');
    await page.getByRole('button', { name: 'Pay' }).click();
    await paidIntent(page, 'succeeded');
    await page.context().close();
  });

  it('3-D Secure passed in the modal frame (4000002500003155)', async () => {
    const { page, frame } = await open('types=card');
    await fillCard(frame, '4000002500003155');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('dialog', { name: '3D Secure authentication' }).waitFor();
    await checkState(page, 'standin-3ds-modal');
    await page
      .frameLocator('iframe[title="3D Secure authentication"]')
      .getByRole('button', { name: 'Complete' })
      .click();
    const pid = await paidIntent(page, 'succeeded');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(emu.paymentIntents.get(pid)!.status).toBe('succeeded');
    await noCspViolations(page);
    await page.context().close();
  });

  it('3-D Secure failed (4000000000003220): the error Stripe.js gives', async () => {
    const { page, frame } = await open('types=card');
    await fillCard(frame, '4000000000003220');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.frameLocator('iframe[title="3D Secure authentication"]').getByRole('button', { name: 'Fail' }).click();
    await expect
      .poll(() => result(page).textContent())
      .toMatch(/^Error: The provided PaymentMethod has failed authentication/);
    await page.context().close();
  });

  it('a US bank account by microdeposits: requires_action, verified on the hosted page, then settled by the control', async () => {
    const { page, frame } = await open('types=card,us_bank_account&amount=4200');
    await frame.getByRole('tab', { name: 'US bank account' }).click();
    await frame.getByLabel('Full name').fill('Ada Lovelace');
    await frame.getByRole('button', { name: 'Enter bank details manually instead' }).click();
    await frame.getByLabel('Routing number').fill('110000000');
    await frame.getByLabel('Account number', { exact: true }).fill('000123456789');
    await frame.getByLabel('Confirm account number').fill('000123456789');
    expect(await frame.getByText(/authorise Remit and Stripe/).count()).toBe(1);
    await checkState(page, 'standin-bank-manual');
    await page.getByRole('button', { name: 'Pay' }).click();
    const pid = await paidIntent(page, 'requires_action');
    const pi = emu.paymentIntents.get(pid)!;
    const verify = (pi.next_action as unknown as { verify_with_microdeposits: { hosted_verification_url: string } })
      .verify_with_microdeposits.hosted_verification_url;
    await page.goto(verify);
    await page.getByLabel('Descriptor code').fill('SM11AA');
    await page.getByRole('button', { name: 'Verify account' }).click();
    await page.getByRole('status').filter({ hasText: 'Your bank account is verified' }).waitFor();
    await checkState(page, 'standin-microdeposits-verified');
    expect(pi.status).toBe('processing');
    const settled = emu.settleAch(pid, 'succeeded');
    expect(settled.type).toBe('payment_intent.succeeded');
    expect(emu.paymentIntents.get(pid)).toMatchObject({ status: 'succeeded', amount_received: 4200 });
    await page.context().close();
  });

  it('a US bank account linked at once (Test Institution): processing', async () => {
    const { page, frame } = await open('types=card,us_bank_account');
    await frame.getByRole('tab', { name: 'US bank account' }).click();
    await frame.getByLabel('Full name').fill('Ada Lovelace');
    await frame.getByRole('button', { name: /Test Institution/ }).click();
    await frame.getByText(/••••6789 — verified/).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await paidIntent(page, 'processing');
    await page.context().close();
  });

  it("locale 'es': the frame's fields and messages are in Spanish", async () => {
    const { page, frame } = await open('types=card,us_bank_account&locale=es');
    await frame.getByRole('tab', { name: 'Tarjeta' }).waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => result(page).textContent()).toBe('Error: El número de tu tarjeta está incompleto.');
    expect(await frame.getByLabel('Número de tarjeta').getAttribute('aria-invalid')).toBe('true');
    await page.context().close();
  });

  it('confirmSetup saves a card for later (SetupIntent succeeded, card on the customer)', async () => {
    const { page, frame } = await open('kind=setup&types=card');
    await fillCard(frame, '4242424242424242');
    await page.getByRole('button', { name: 'Pay' }).click();
    const sid = await paidIntent(page, 'succeeded');
    const si = emu.setupIntents.get(sid)!;
    expect(emu.paymentMethods.get(si.payment_method as string)).toMatchObject({
      customer: si.customer,
      card: { last4: '4242' },
    });
    await page.context().close();
  });
});
