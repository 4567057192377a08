import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessor } from '@remit/core';
import { PAY } from '../packages/contract/src/catalogue/pay.js';
import { STRIPE } from '../packages/contract/src/catalogue/stripe.js';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import {
  emulatedStripeEnv,
  startStripeEmulator,
  type StripeEmulator,
} from '../apps/server/src/testing/stripe-emulator.js';
import { launchChromium } from './browser.js';
import { createLink, newPage, pageErrors, SCREENSHOTS, transactions, YY, type World } from './support.js';

/**
 * Outages on the pay page, in real Chromium: Stripe unreachable from the server when the page
 * opens, Stripe unreachable from the browser when the customer confirms, the pay call lost on the
 * simulator's path, and a server without a processor. The customer reads, in the page's language,
 * that the payment could not be started or completed for a technical reason, whether money moved,
 * and to try again in a moment: never "declined", never the API's words for developers.
 */
const LANGS = ['en', 'de'] as const;
/** What the page must never say in an outage: a decline, the API's retry advice, the browser's error. */
const NEVER = (l: (typeof LANGS)[number]) => [
  PAY[l].declinedTitle,
  PAY[l].tryAnother,
  'Idempotency-Key',
  'TypeError',
  'Failed to fetch',
  'declined',
];

let emu: StripeEmulator;
const worlds: World[] = [];
/** The server on Stripe (the emulator, through `link`), the simulator's, one without a processor. */
let stripe: World;
let simulator: World;
let none: World;

/**
 * The server's way to Stripe's API: a TCP relay to the emulator that can be cut, as a network
 * outage does (open connections reset, new ones refused at once). The browser reaches Stripe.js
 * and the emulator directly.
 */
let link: { url: string; cut(down: boolean): void; close(): Promise<void> };
async function relayTo(target: string): Promise<typeof link> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => open.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut(d) {
      down = d;
      if (d) for (const s of open) s.destroy();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

let browser: Browser;
async function world(s: TestServer): Promise<World> {
  const m = await newMerchant(s);
  const w = { s, m, browser, close: () => s.close() };
  worlds.push(w);
  return w;
}

beforeAll(async () => {
  browser = await launchChromium();
  emu = await startStripeEmulator();
  link = await relayTo(emu.url);
  const env = { ...emulatedStripeEnv(emu), REMIT_STRIPE_API_URL: link.url };
  stripe = await world(await startTestServer({ processor: createProcessor('stripe', 'sandbox', env) }));
  simulator = await world(await startTestServer());
  none = await world(await startTestServer({ processor: createProcessor('none', 'sandbox', {}) }));
}, 600_000);
afterAll(async () => {
  for (const w of worlds) await w.close();
  await browser?.close();
  await link?.close();
  await emu?.close();
});

/** Screenshot, then axe (WCAG 2.1 A/AA, best practice) on Remit's page, Stripe's frame left out as pay-stripe does. */
async function checkState(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const r = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .exclude('iframe[title="Secure payment input frame"]')
    .analyze();
  expect(
    r.violations.map((v) => `${v.id}: ${v.help}`),
    name,
  ).toEqual([]);
  expect(pageErrors, name).toEqual([]);
}

async function saysNothingWrong(page: Page, l: (typeof LANGS)[number]) {
  const text = (await page.locator('body').innerText()).toLowerCase();
  for (const bad of NEVER(l)) expect(text, bad).not.toContain(bad.toLowerCase());
}

/** The Stripe stand-in's fields (a frame of the emulator's origin). */
async function fillStripeCard(page: Page) {
  const f = page.frameLocator('iframe[title="Secure payment input frame"]');
  await f.getByLabel('Card number').fill('4242424242424242');
  await f.getByLabel('Expiration date').fill(`12 / ${YY}`);
  await f.getByLabel('Security code').fill('123');
  await f.getByLabel('ZIP code').fill('94105');
}

/** Remit's own card fields (the simulator's path), found by their labels in the page's language. */
async function fillRemitCard(page: Page, l: (typeof LANGS)[number]) {
  await page.getByLabel(PAY[l].cardNumber).fill('4242424242424242');
  await page.getByLabel(PAY[l].expiry).fill(`12/${YY}`);
  await page.getByLabel(PAY[l].cvc).fill('123');
  await page.getByLabel(PAY[l].nameOnCard).fill('Ada Lovelace');
  await page.getByLabel(PAY[l].zip).fill('94105');
}

const payButton = (page: Page, l: (typeof LANGS)[number], amount: string) =>
  page.getByRole('button', { name: PAY[l].pay.replace('{amount}', amount) });

/** $21.00 as the page writes it in each language (its `intl` tag). */
const AMOUNT = {
  en: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(21),
  de: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'USD' }).format(21),
};

describe('the pay page during an outage', () => {
  for (const l of LANGS) {
    it(`${l}: Stripe unreachable when the page opens: the payment could not start, no money was taken, reload in a moment`, async () => {
      const id = await createLink(stripe, { amount: '21.00' });
      const before = (await transactions(stripe)).length;
      link.cut(true);
      const page = await newPage(stripe);
      await page.goto(`${stripe.s.url}/pay/${id}?locale=${l}`);
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toBe(STRIPE[l].notStarted);
      // No Pay button: nothing to press until the page is reloaded.
      expect(await page.locator('form.pay-form button').count()).toBe(0);
      await saysNothingWrong(page, l);
      await checkState(page, `outage-stripe-unreachable-${l}`);
      link.cut(false);
      expect((await transactions(stripe)).length).toBe(before);
      expect(emu.intents().filter((i) => i.metadata.remit_link === id)).toEqual([]);
      await page.context().close();
    }, 240_000);

    it(`${l}: confirming at Stripe fails (the network): not completed, try again; the retry pays once`, async () => {
      const id = await createLink(stripe, { amount: '21.00' });
      const page = await newPage(stripe);
      await page.goto(`${stripe.s.url}/pay/${id}?locale=${l}`);
      await fillStripeCard(page);
      // The browser cannot reach Stripe for the confirmation (the request fails: "Failed to fetch").
      await page.route(/\/v1\/payment_intents\/[^/]+\/confirm/, (r) => r.abort('failed'));
      const button = payButton(page, l, AMOUNT[l]);
      await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true);
      await button.click();
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), { timeout: 30_000 })
        .toBe(PAY[l].notCompletedTitle + PAY[l].technicalRetry);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
      await saysNothingWrong(page, l);
      await checkState(page, `outage-stripe-confirm-failed-${l}`);
      expect(
        emu
          .intents()
          .filter((i) => i.metadata.remit_link === id)
          .map((i) => i.status),
      ).not.toContain('succeeded');
      // Stripe reachable again: the same form pays, once.
      await page.unroute(/\/v1\/payment_intents\/[^/]+\/confirm/);
      await button.click();
      await page.getByRole('heading', { name: PAY[l].paidTitle }).waitFor({ timeout: 30_000 });
      expect(
        emu
          .intents()
          .filter((i) => i.metadata.remit_link === id)
          .map((i) => [i.status, i.amount_received]),
      ).toEqual([['succeeded', 2100]]);
      await page.context().close();
    }, 240_000);

    it(`${l}: the simulator's pay call is lost (the network): not completed, not charged twice; the retry pays once`, async () => {
      const id = await createLink(simulator, { amount: '21.00' });
      const page = await newPage(simulator);
      await page.goto(`${simulator.s.url}/pay/${id}?locale=${l}`);
      await fillRemitCard(page, l);
      const ofLink = async () => (await transactions(simulator)).filter((t) => t.order_id === id);
      expect((await ofLink()).map((t) => t.status)).not.toContain('completed');
      const pay = /\/pay\/api\/links\/[^/]+\/pay$/;
      await page.route(pay, (r) => r.abort('failed'));
      await payButton(page, l, AMOUNT[l]).click();
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), { timeout: 30_000 })
        .toBe(PAY[l].notCompletedTitle + PAY[l].networkError);
      await saysNothingWrong(page, l);
      await checkState(page, `outage-simulator-pay-lost-${l}`);
      await page.unroute(pay);
      await payButton(page, l, AMOUNT[l]).click();
      await page.getByRole('heading', { name: PAY[l].paidTitle }).waitFor({ timeout: 30_000 });
      // One sale for the link, completed: the lost call charged nothing, the retry once.
      expect((await ofLink()).map((t) => t.status)).toEqual(['completed']);
      await page.context().close();
    }, 240_000);

    it(`${l}: no processor answers the pay call: not completed, no money was taken, try again in a moment`, async () => {
      const id = await createLink(none, { amount: '21.00' });
      const page = await newPage(none);
      await page.goto(`${none.s.url}/pay/${id}?locale=${l}`);
      await fillRemitCard(page, l);
      await payButton(page, l, AMOUNT[l]).click();
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), { timeout: 30_000 })
        .toBe(PAY[l].notCompletedTitle + PAY[l].technicalNoMoney);
      await saysNothingWrong(page, l);
      await checkState(page, `outage-no-processor-${l}`);
      await page.context().close();
    }, 240_000);
  }
});
