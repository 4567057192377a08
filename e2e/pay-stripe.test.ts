import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessor } from '@remit/core';
import { sql } from 'drizzle-orm';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import {
  emulatedStripeEnv,
  startStripeEmulator,
  type StripeEmulator,
} from '../apps/server/src/testing/stripe-emulator.js';
import { launchChromium } from './browser.js';
import { AxeBuilder } from '@axe-core/playwright';
import { createLink, newPage, pageErrors, SCREENSHOTS, transactions, YY, type World } from './support.js';

/**
 * The pay and add-card pages with Stripe as the processor, in real Chromium against the real
 * server and the project's Stripe emulator, whose stand-in of Stripe.js (REMIT_STRIPE_JS_URL)
 * mounts the Payment Element as a frame of the emulator's origin. Card and bank numbers are typed
 * only into that frame: every request the browser sends to Remit is scanned for them.
 */
let w: World;
let emu: StripeEmulator;
const servers: Server[] = [];
/** The sandbox clock: real time, moved on by tests that wait days (microdeposits). */
let daysLater = 0;
const DAY = 24 * 60 * 60 * 1000;

/** Every request any page sent to Remit's origin (URL and body), and to the emulator's. */
const toRemit: string[] = [];
const toStripe: string[] = [];
/** The add-card page's token (its CSP is checked at the end). */
let cardToken = '';

const CARD = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  threeDs: '4000002500003155',
  threeDsAlways: '4000000000003220',
};
const BANK = { routing: '110000000', account: '000123456789' };
const SECRETS = [...Object.values(CARD), BANK.account];

beforeAll(async () => {
  emu = await startStripeEmulator();
  const s = await startTestServer({
    processor: createProcessor('stripe', 'sandbox', emulatedStripeEnv(emu)),
    now: () => new Date(Date.now() + daysLater * DAY),
    workers: { webhooks: { pollMs: 20 } },
  });
  emu.deliverTo(`${s.url}/stripe/webhooks`);
  const m = await newMerchant(s);
  const browser = await launchChromium();
  w = {
    s,
    m,
    browser,
    async close() {
      await browser.close();
      await s.close();
    },
  };
});
afterAll(async () => {
  await w?.close();
  await emu?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

/** A page whose every request is recorded by destination. */
async function open(url: string, opts: Parameters<typeof newPage>[1] = {}): Promise<Page> {
  const page = await newPage(w, opts);
  page.context().on('request', (r) => {
    const line = `${r.method()} ${r.url()} ${r.postData() ?? ''}`;
    if (r.url().startsWith(w.s.url)) toRemit.push(line);
    else if (r.url().startsWith(emu.url)) toStripe.push(line);
  });
  await page.goto(url);
  return page;
}

const ELEMENT = 'iframe[title="Secure payment input frame"]';
const element = (where: Page | FrameLocator) => where.frameLocator(ELEMENT);

async function fillCard(where: Page | FrameLocator, number: string) {
  const f = element(where);
  await f.getByLabel('Card number').fill(number);
  await f.getByLabel('Expiration date').fill(`12 / ${YY}`);
  await f.getByLabel('Security code').fill('123');
  await f.getByLabel('ZIP code').fill('94105');
}

/** The Pay button, once Stripe's fields are ready (it is disabled until then). */
async function pay(page: Page, name: string) {
  const button = page.getByRole('button', { name });
  await expect.poll(() => button.isEnabled(), { timeout: 15_000 }).toBe(true);
  await button.click();
}

/** Stripe.js's 3-D Secure modal frame (the emulator's page). */
const challenge = (page: Page) => page.frameLocator('iframe[title="3D Secure authentication"]');

/** The PaymentIntents the emulator holds for a link. */
const intentsOf = (linkId: string) => emu.intents().filter((i) => i.metadata.remit_link === linkId);
/** The sales Remit recorded for a link's order (by amount, as each test uses its own). */
const salesOf = async (amount: string) =>
  (await transactions(w)).filter((t) => t.amount === amount || Number(t.amount) === Number(amount));

/**
 * Screenshot and axe, as support.ts's checkState: Remit's page on its own with every rule, then with
 * Stripe's frames in it. The stand-in's frame is a document with its own `<main>`, so axe's
 * landmark-unique sees two mains across the frame boundary: that rule is the one left out there.
 * `nested`: the pay page is in the widget's modal (a frame in a shadow root), where Stripe's frame
 * cannot be left out by selector: the second scan only (the same page alone is scanned elsewhere).
 */
async function checkState(page: Page, name: string, opts: { nested?: boolean } = {}): Promise<void> {
  await shot(page, name);
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
  const list = (r: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  if (!opts.nested)
    expect(list(await new AxeBuilder({ page }).withTags(tags).exclude(ELEMENT).analyze()), name).toEqual([]);
  expect(
    list(await new AxeBuilder({ page }).withTags(tags).disableRules(['landmark-unique']).analyze()),
    `${name} with Stripe's frames`,
  ).toEqual([]);
  expect(pageErrors, name).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

describe('cards in Stripe’s fields', () => {
  it('pay: the Payment Element in the page, confirmed by Stripe.js, reported; the receipt shows and one sale is recorded', async () => {
    const id = await createLink(w, { amount: '10.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await element(page).getByLabel('Card number').waitFor();
    // Remit's own card fields are not there.
    expect(await page.locator('#card-number').count()).toBe(0);
    await checkState(page, 'stripe-pay-form');
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $10.00');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('Visa ending in 4242');
    await checkState(page, 'stripe-pay-receipt');
    const intents = intentsOf(id);
    expect(intents.map((i) => [i.status, i.amount_received])).toEqual([['succeeded', 1000]]);
    await expect.poll(async () => (await salesOf('10.00')).length).toBe(1);
    await page.context().close();
  });

  it('decline: the reason is announced and focused, the link stays open, another card pays the same PaymentIntent', async () => {
    const id = await createLink(w, { amount: '11.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARD.insufficient);
    await pay(page, 'Pay $11.00');
    const alert = page.getByRole('alert').filter({ hasText: 'Payment declined' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/insufficient funds/i);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    await checkState(page, 'stripe-pay-declined');
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $11.00');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(intentsOf(id).map((i) => [i.status, i.amount_received])).toEqual([['succeeded', 1100]]);
    await page.context().close();
  });

  it('3-D Secure passed: Stripe.js shows the challenge over the page; completed, the receipt shows', async () => {
    const id = await createLink(w, { amount: '12.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARD.threeDs);
    await pay(page, 'Pay $12.00');
    await challenge(page).getByRole('button', { name: 'Complete' }).waitFor();
    await shot(page, 'stripe-3ds-challenge');
    await challenge(page).getByRole('button', { name: 'Complete' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('ending in 3155');
    await checkState(page, 'stripe-3ds-paid');
    expect(intentsOf(id).map((i) => i.status)).toEqual(['succeeded']);
    await page.context().close();
  });

  it('3-D Secure failed: the page says the bank could not verify it; another card pays', async () => {
    const id = await createLink(w, { amount: '13.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARD.threeDsAlways);
    await pay(page, 'Pay $13.00');
    await challenge(page).getByRole('button', { name: 'Fail' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Payment declined' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('3-D Secure');
    await checkState(page, 'stripe-3ds-failed');
    expect((await salesOf('13.00')).filter((t) => t.status === 'Approved' || t.status === 'approved')).toEqual([]);
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $13.00');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(intentsOf(id).map((i) => [i.status, i.amount_received])).toEqual([['succeeded', 1300]]);
    await page.context().close();
  });

  it('preauthorization: the PaymentIntent is created to capture manually; the card is held, not charged', async () => {
    const id = await createLink(w, { amount: '14.00', preauth: true });
    const page = await open(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARD.visa);
    await pay(page, 'Authorize $14.00');
    await page.getByRole('heading', { name: 'Payment authorized' }).waitFor();
    await checkState(page, 'stripe-preauth');
    expect(intentsOf(id).map((i) => [i.capture_method, i.status, i.amount_received])).toEqual([
      ['manual', 'requires_capture', 0],
    ]);
    await page.context().close();
  });
});

describe('one PaymentIntent per link, one record per PaymentIntent', () => {
  it('two tabs pay one link at once: one PaymentIntent takes the money once; both tabs end on the receipt', async () => {
    const id = await createLink(w, { amount: '15.00' });
    const [a, b] = await Promise.all([open(`${w.s.url}/pay/${id}`), open(`${w.s.url}/pay/${id}`)]);
    await Promise.all([fillCard(a, CARD.visa), fillCard(b, CARD.visa)]);
    await Promise.all([pay(a, 'Pay $15.00'), pay(b, 'Pay $15.00')]);
    for (const page of [a, b]) await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await shot(b, 'stripe-two-tabs-second');
    const intents = intentsOf(id);
    expect(intents.map((i) => [i.status, i.amount_received])).toEqual([['succeeded', 1500]]);
    await expect.poll(async () => (await salesOf('15.00')).length).toBe(1);
    await a.context().close();
    await b.context().close();
  });

  it('a link deleted with its page open: its PaymentIntent is cancelled, paying says the link is gone, nothing is taken', async () => {
    const id = await createLink(w, { amount: '16.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await element(page).getByLabel('Card number').waitFor();
    const del = await w.s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${id}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key },
    });
    expect(del.status).toBe(200);
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $16.00');
    const alert = page.getByRole('alert').filter({ hasText: 'The merchant cancelled this payment link' });
    await alert.waitFor();
    await checkState(page, 'stripe-link-deleted');
    expect(intentsOf(id).map((i) => [i.status, i.amount_received])).toEqual([['canceled', 0]]);
    // The link's pending sale is cancelled with it; nothing was taken.
    expect((await salesOf('16.00')).map((t) => t.status)).toEqual(['cancelled']);
    await page.context().close();
  });

  it("Stripe's event lost: the page's report records the sale", async () => {
    const id = await createLink(w, { amount: '17.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await element(page).getByLabel('Card number').waitFor();
    const [pi] = intentsOf(id);
    emu.dropEvents(pi!.id, 10);
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $17.00');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await salesOf('17.00')).toHaveLength(1);
    await page.context().close();
  });

  it("the page closed before it reports: Stripe's event records the sale", async () => {
    const id = await createLink(w, { amount: '18.00' });
    const page = await open(`${w.s.url}/pay/${id}`);
    await element(page).getByLabel('Card number').waitFor();
    const reported = new Promise<void>((resolve) =>
      page.route('**/intent/report', async () => {
        resolve();
        await page
          .context()
          .close()
          .catch(() => {}); // the customer closed the tab: the report never reaches Remit
      }),
    );
    await fillCard(page, CARD.visa);
    await pay(page, 'Pay $18.00');
    await reported;
    await emu.eventsSettled();
    await expect.poll(async () => (await salesOf('18.00')).length, { timeout: 15_000 }).toBe(1);
    expect(intentsOf(id).map((i) => i.status)).toEqual(['succeeded']);
  });
});

describe('add-card through a SetupIntent', () => {
  it('the card is saved at Stripe (confirmSetup), never charged; the merchant then charges it through the API', async () => {
    const api = (path: string, json: object) =>
      w.s.http({
        method: 'POST',
        path: `/api/v1${path}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, ...json },
      });
    const add = await api('/customers/add', { first_name: 'Rita', last_name: 'Levi', email: 'rita@example.com' });
    const customerId = add.body.data.customer_id as number;
    expect((await api(`/customers/request-card/${customerId}`, {})).status).toBe(200);
    const r = (await w.s.core.ctx.db.execute(
      sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
    )) as unknown as {
      rows: Array<{ id: string }>;
    };
    cardToken = r.rows[0]!.id;
    const page = await open(`${w.s.url}/pay/card/${cardToken}`);
    await element(page).getByLabel('Card number').waitFor();
    await checkState(page, 'stripe-add-card-form');
    await fillCard(page, CARD.visa);
    await pay(page, 'Save card');
    await page.getByRole('heading', { name: 'Card saved' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('Visa ending in 4242');
    await checkState(page, 'stripe-add-card-saved');
    const before = emu.intents().length;
    const charge = await api(`/customers/charge/${customerId}`, { amount: 19.99, order_id: 'after-stripe-add-card' });
    expect(charge.status, charge.text).toBe(200);
    const made = emu.intents().slice(before);
    expect(made.map((i) => [i.status, i.amount_received])).toEqual([['succeeded', 1999]]);
    await page.context().close();
  });

  it('a bank account kept the same way (verified at once, Stripe’s mandate shown); its charge is a pending ACH debit', async () => {
    const api = (path: string, json: object) =>
      w.s.http({
        method: 'POST',
        path: `/api/v1${path}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, ...json },
      });
    const add = await api('/customers/add', { first_name: 'Emmy', last_name: 'Noether', email: 'emmy@example.com' });
    const customerId = add.body.data.customer_id as number;
    expect((await api(`/customers/request-card/${customerId}`, {})).status).toBe(200);
    const r = (await w.s.core.ctx.db.execute(
      sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
    )) as unknown as {
      rows: Array<{ id: string }>;
    };
    const page = await open(`${w.s.url}/pay/card/${r.rows[0]!.id}`);
    const f = element(page);
    await f.getByRole('tab', { name: 'US bank account' }).click();
    await f.getByLabel('Full name').fill('Emmy Noether');
    await f.getByRole('button', { name: /Test Institution/ }).click();
    await f.getByText(/authorise/).waitFor();
    await pay(page, 'Save card');
    await page.getByRole('heading', { name: 'Card saved' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('STRIPE TEST BANK ending in');
    const before = emu.intents().length;
    const charge = await api(`/customers/charge/${customerId}`, { amount: 23.45, order_id: 'after-stripe-add-bank' });
    expect(charge.status, charge.text).toBe(200);
    expect(charge.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
    expect(
      emu
        .intents()
        .slice(before)
        .map((i) => [i.status, i.amount]),
    ).toEqual([['processing', 2345]]);
    await page.context().close();
  });
});

describe('bank payments in Stripe’s fields', () => {
  it('verified at once (Financial Connections): the debit is pending, and Stripe’s event completes it', async () => {
    const id = await createLink(w, { amount: '20.00', allow_ach: true });
    const page = await open(`${w.s.url}/pay/${id}`);
    const f = element(page);
    await f.getByRole('tab', { name: 'US bank account' }).click();
    await f.getByLabel('Full name').fill('Ada Lovelace');
    await f.getByRole('button', { name: /Test Institution/ }).click();
    await f.getByText(/authorise/).waitFor();
    await checkState(page, 'stripe-bank-instant');
    await pay(page, 'Pay $20.00');
    await page.getByRole('heading', { name: 'Bank payment submitted' }).waitFor();
    await checkState(page, 'stripe-bank-pending');
    const [pi] = intentsOf(id);
    expect(pi!.status).toBe('processing');
    emu.settleAch(pi!.id, 'succeeded');
    await emu.eventsSettled();
    await expect
      .poll(async () => (await salesOf('20.00')).map((t) => t.status), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/approved|completed|succeeded/i)]);
    await page.context().close();
  });

  it('by microdeposits: the page says what to do next; verified days later, Stripe settles it and the sale completes', async () => {
    const id = await createLink(w, { amount: '21.00', allow_ach: true });
    const page = await open(`${w.s.url}/pay/${id}`);
    const f = element(page);
    await f.getByRole('tab', { name: 'US bank account' }).click();
    await f.getByLabel('Full name').fill('Ada Lovelace');
    await f.getByRole('button', { name: /manually/ }).click();
    await f.getByLabel('Routing number').fill(BANK.routing);
    await f.getByLabel('Account number', { exact: true }).fill(BANK.account);
    await f.getByLabel('Confirm account number').fill(BANK.account);
    await pay(page, 'Pay $21.00');
    const next = page.getByRole('heading', { name: 'Verify your bank account' });
    await next.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('verify-title');
    expect(await page.locator('.payment').textContent()).toContain('1–2 business days');
    await checkState(page, 'stripe-bank-microdeposits');
    const link = page.getByRole('link', { name: 'Open the verification page' });
    const url = (await link.getAttribute('href'))!;
    const [pi] = intentsOf(id);
    expect(url).toContain(pi!.id);
    expect(await salesOf('21.00')).toHaveLength(1); // pending, recorded once
    // Reloaded meanwhile: the pending bank payment's receipt (never the form: no second payment).
    await page.reload();
    await page.getByRole('heading', { name: 'Bank payment submitted' }).waitFor();
    // …with Stripe's verification page still offered (the view carries it).
    expect(await page.getByRole('link', { name: 'Open the verification page' }).getAttribute('href')).toBe(url);
    await checkState(page, 'stripe-bank-microdeposits-reloaded');
    // Two days later by the sandbox clock the deposits arrive: the customer verifies on Stripe's page.
    daysLater = 2;
    const verify = await open(url);
    await verify.getByLabel('Descriptor code').fill('SM11AA');
    await verify.getByRole('button', { name: 'Verify account' }).click();
    await verify.getByRole('status').waitFor();
    await shot(verify, 'stripe-bank-microdeposits-verified');
    expect(intentsOf(id)[0]!.status).toBe('processing');
    emu.settleAch(pi!.id, 'succeeded');
    await emu.eventsSettled();
    await expect
      .poll(async () => (await salesOf('21.00')).map((t) => t.status), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/approved|completed|succeeded/i)]);
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.getByRole('link', { name: 'Open the verification page' }).count()).toBe(0);
    expect(await page.locator('.receipt').textContent()).toContain('ACH ending in 6789');
    await shot(page, 'stripe-bank-microdeposits-done');
    await verify.context().close();
    await page.context().close();
    daysLater = 0;
  });
});

describe('card and bank at different totals (the fee passed on)', () => {
  it('both tabs are offered; the bank tab moves the PaymentIntent to the bank total, which Stripe takes and Remit records', async () => {
    const id = await createLink(w, { amount: '150.00', pass_fee: true, allow_card: true, allow_ach: true });
    const view = (await w.s.http({ method: 'GET', path: `/pay/api/links/${id}` })).body;
    const { card, ach } = view.amounts.total as { card: number; ach: number };
    expect(card).not.toBe(ach);
    const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;
    const page = await open(`${w.s.url}/pay/${id}`);
    const f = element(page);
    await f.getByLabel('Card number').waitFor();
    await expect.poll(() => intentsOf(id).map((i) => i.amount)).toEqual([card]);
    await f.getByRole('tab', { name: 'US bank account' }).click();
    await expect.poll(() => intentsOf(id).map((i) => i.amount)).toEqual([ach]);
    await f.getByLabel('Full name').fill('Ada Lovelace');
    await f.getByRole('button', { name: /Test Institution/ }).click();
    await pay(page, `Pay ${dollars(ach)}`);
    await page.getByRole('heading', { name: 'Bank payment submitted' }).waitFor();
    const [pi] = intentsOf(id);
    expect(pi).toMatchObject({ status: 'processing', amount: ach });
    await expect.poll(async () => (await salesOf((ach / 100).toFixed(2))).length).toBe(1);
    await page.context().close();
  });

  it('back to the card tab: the card total is taken', async () => {
    const id = await createLink(w, { amount: '160.00', pass_fee: true, allow_card: true, allow_ach: true });
    const { card, ach } = (await w.s.http({ method: 'GET', path: `/pay/api/links/${id}` })).body.amounts.total as {
      card: number;
      ach: number;
    };
    const page = await open(`${w.s.url}/pay/${id}`);
    const f = element(page);
    await f.getByLabel('Card number').waitFor();
    await f.getByRole('tab', { name: 'US bank account' }).click();
    await expect.poll(() => intentsOf(id).map((i) => i.amount)).toEqual([ach]);
    await f.getByRole('tab', { name: 'Card' }).click();
    await expect.poll(() => intentsOf(id).map((i) => i.amount)).toEqual([card]);
    await fillCard(page, CARD.visa);
    await pay(page, `Pay $${(card / 100).toFixed(2)}`);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(intentsOf(id).map((i) => [i.status, i.amount_received])).toEqual([['succeeded', card]]);
    await page.context().close();
  });
});

describe('Stripe.js unreachable', () => {
  it('the page says the secure fields could not load, and offers no Pay button', async () => {
    const id = await createLink(w, { amount: '25.00' });
    const page = await newPage(w);
    await page.route(`${emu.url}/v3/**`, (route) => route.abort());
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.getByRole('alert').filter({ hasText: 'The secure payment fields could not load' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay $25.00' }).count()).toBe(0);
    await checkState(page, 'stripe-js-unreachable');
    await page.context().close();
  });
});

describe("the page's language reaches Stripe's fields", () => {
  it('a Spanish page asks Stripe.js for Spanish fields', async () => {
    const id = await createLink(w, { amount: '24.00' });
    const page = await open(`${w.s.url}/pay/${id}`, { locale: 'es-ES' });
    await element(page).getByRole('tab').first().waitFor();
    const src = (await page.locator(ELEMENT).getAttribute('src'))!;
    expect(new URL(src).searchParams.get('locale')).toBe('es');
    await expect.poll(() => page.getByRole('button', { name: /^Pagar / }).isEnabled()).toBe(true);
    await checkState(page, 'stripe-pay-form-es');
    await page.context().close();
  });
});

describe("the widget's modal", () => {
  it('pays through Stripe\'s fields inside the modal\'s frame (allow="payment")', async () => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title>
<script src="${w.s.url}/js/dynamic-launch.js?remit_merchant_public_key=${w.m.public_key}"></script></head>
<body><main aria-label="Acme shop"><h1>Acme shop</h1><button id="pay" type="button">Pay $22.00</button><p id="out" role="status"></p></main>
<script>document.getElementById('pay').addEventListener('click', () => getPaymentPage(22).then((r) => (document.getElementById('out').textContent = 'Payment ' + r.status)));</script>
</body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const shop = `http://localhost:${(server.address() as AddressInfo).port}`;
    const widget = (
      await w.s.http({
        method: 'GET',
        path: '/api/v1/widgets',
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key },
      })
    ).body.data[0];
    await w.s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${widget.id}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key, allowed_origins: [...widget.allowed_origins, shop] },
    });
    const page = await open(shop);
    await page.getByRole('button', { name: 'Pay $22.00' }).click();
    const modalFrame = page.locator('iframe[title="Payment form: Pay $22.00"]');
    expect(await modalFrame.getAttribute('allow')).toBe('payment');
    const pay = page.frameLocator('iframe[title="Payment form: Pay $22.00"]');
    await element(pay).getByLabel('Card number').waitFor({ timeout: 15_000 });
    await checkState(page, 'stripe-widget-modal', { nested: true });
    await fillCard(pay, CARD.visa);
    const button = pay.getByRole('button', { name: 'Pay $22.00' });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await expect.poll(() => page.locator('#out').textContent(), { timeout: 15_000 }).toBe('Payment succeeded');
    await shot(page, 'stripe-widget-paid');
    await page.context().close();
  });
});

describe('no card number reaches Remit', () => {
  it('the pay and add-card pages’ CSP allows Stripe.js’s origin and no other', async () => {
    const id = await createLink(w, { amount: '23.00' });
    const origin = new URL(emu.url).origin;
    for (const path of [`/pay/${id}`, ...(cardToken ? [`/pay/card/${cardToken}`] : [])]) {
      const res = await w.s.http({ method: 'GET', path });
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d]));
      for (const d of ['script-src', 'frame-src', 'connect-src'])
        expect(directives[d], `${path} ${d}`).toBe(`${d} 'self' ${origin}`);
      expect(directives['default-src'], path).toBe("default-src 'none'");
    }
  });

  it('of every request the browser sent to Remit, none carries a card or account number; Stripe’s frame sent them', () => {
    expect(toRemit.length).toBeGreaterThan(0);
    for (const secret of SECRETS) {
      const spaced = secret.replace(/(\d{4})(?=\d)/g, '$1 ');
      const found = toRemit.filter(
        (line) => line.includes(secret) || line.includes(spaced) || line.includes(encodeURIComponent(spaced)),
      );
      expect(found, secret).toEqual([]);
    }
    // The scan sees what it looks for: the numbers went to Stripe (the emulator), from its frame.
    expect(toStripe.some((line) => line.includes(CARD.visa))).toBe(true);
  });
});
