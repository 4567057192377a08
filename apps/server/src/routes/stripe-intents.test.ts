import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { reconcilePayments } from '@remit/core';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, merchantPost, noonClock, rows, TEST_CARD } from '../testing/payments.js';
import {
  emulatedStripe,
  startStripeEmulator,
  stripeJsConfirmPayment,
  stripeJsConfirmSetup,
  type StripeEmulator,
  type StripeJsPayWith,
} from '../testing/stripe-emulator.js';

/**
 * Issue 37 over HTTP: the pay page's Stripe calls against the real server and the Stripe
 * emulator, the browser's part done as Stripe.js does it (stripeJsConfirmPayment): the server
 * creates the link's one PaymentIntent, the "browser" confirms it at Stripe with the publishable
 * key, and the sale is recorded once, whichever of report, event, return, reconciliation or
 * deletion comes first. The emulator refuses raw card data from the server, as an ordinary account does.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  emu = await startStripeEmulator({ refuseRawCardData: true });
  s = await startTestServer({ now: noonClock(), processor: emulatedStripe(emu) });
  emu.deliverTo(`${s.url}/stripe/webhooks`);
  m = await newMerchant(s);
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

const CARD_ENTRY_MESSAGE =
  "Card details are entered in Stripe's secure fields on the pay page; Remit does not accept card numbers while Stripe is the processor.";
const key = () => ({ 'idempotency-key': randomUUID() });

async function newLink(body: object = {}): Promise<string> {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '10.00', ...body },
  });
  expect(res.status).toBe(200);
  return String(res.body.data.payment_link).split('/').pop()!;
}
const intent = (linkId: string) =>
  s.http({ method: 'POST', path: `/pay/api/links/${linkId}/intent`, json: {}, headers: key() });
const report = (linkId: string, pi: string) =>
  s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/intent/report`,
    json: { payment_intent: pi },
    headers: key(),
  });
const piOf = (secret: string) => secret.split('_secret_')[0]!;
const confirm = (secret: string, linkId: string, pay: StripeJsPayWith = { card: '4242424242424242' }) =>
  stripeJsConfirmPayment(emu, secret, pay, `${s.url}/pay/${linkId}/return`);
const saleOf = async (linkId: string) =>
  (
    await rows<{
      id: string;
      status: string;
      is_status: number;
      gateway_ref: string | null;
      amount_cents: number;
      card_brand: string;
      last_four: string;
      payment_method: string;
    }>(
      s,
      sql`select t.id, t.status, t.is_status, t.gateway_ref, t.amount_cents::int as amount_cents, t.card_brand, t.last_four, t.payment_method from transactions t join pay_links l on l.sales_id = t.id where l.id = ${linkId}`,
    )
  )[0]!;
const recordsOf = async (pi: string) =>
  rows<{ id: string; status: string }>(
    s,
    sql`select id, status from transactions where gateway_ref = ${pi} and status <> 'declined'`,
  );
const linkView = async (linkId: string) => (await s.http({ method: 'GET', path: `/pay/api/links/${linkId}` })).body;

/** Opens the link's PaymentIntent and confirms it as the page would; answers its id and secret. */
async function confirmed(linkId: string, pay?: StripeJsPayWith) {
  const res = await intent(linkId);
  expect(res.status).toBe(200);
  const secret: string = res.body.client_secret;
  const r = await confirm(secret, linkId, pay);
  return { pi: piOf(secret), secret, r };
}

describe('card_entry and the refusal of card numbers', () => {
  it('the pay and add-card views name Stripe.js, its address and the publishable key', async () => {
    const linkId = await newLink();
    expect((await linkView(linkId)).card_entry).toEqual({
      kind: 'stripe',
      publishable_key: emu.publishableKey,
      js_url: emu.jsUrl,
    });
  });

  it('every route that could take a card number answers 400 card_entry_by_processor, and nothing reaches Stripe', async () => {
    const linkId = await newLink();
    const before = emu.requests.length;
    const card = {
      number: '4242424242424242',
      exp_month: 12,
      exp_year: TEST_CARD.exp_year,
      cvc: '123',
      name: 'Ada',
      zip: '94105',
    };
    const paid = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      json: { method: 'card', card },
      headers: key(),
    });
    expect(paid.status).toBe(400);
    expect(paid.body).toMatchObject({ code: 'card_entry_by_processor', message: CARD_ENTRY_MESSAGE });
    const added = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Ada', card: TEST_CARD },
    });
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({ code: 'card_entry_by_processor', message: CARD_ENTRY_MESSAGE });
    const token = await cardToken();
    const saved = await s.http({ method: 'POST', path: `/pay/api/cards/${token}`, json: { card }, headers: key() });
    expect(saved.status).toBe(400);
    expect(saved.body.code).toBe('card_entry_by_processor');
    expect(
      emu.requests.slice(before).filter((r) => r.path === '/v1/payment_methods' || r.path === '/v1/customers'),
    ).toEqual([]);
    expect((await linkView(linkId)).status).toBe('open');
  });
});

describe("the link's one PaymentIntent", () => {
  it('pay: a destination charge with our fee, metadata naming link and sale, Stripe idempotency; the report records it', async () => {
    const linkId = await newLink();
    const { pi, r } = await confirmed(linkId);
    expect(r.paymentIntent).toMatchObject({ status: 'succeeded' });
    const created = emu.requests.find(
      (q) =>
        q.method === 'POST' &&
        q.path === '/v1/payment_intents' &&
        (q.params.metadata as Record<string, string>)?.remit_link === linkId,
    )!;
    expect(created.idempotencyKey).toMatch(/^remit_intent_[0-9a-f]{48}$/);
    const sale = await saleOf(linkId);
    expect(created.params).toMatchObject({
      amount: '1000',
      currency: 'usd',
      capture_method: 'automatic',
      metadata: { remit_link: linkId, remit_sale: sale.id },
    });
    const [merchant] = await rows<{ stripe_account_id: string }>(
      s,
      sql`select stripe_account_id from merchants where id = ${m.merchant_id}`,
    );
    expect(created.params).toMatchObject({
      transfer_data: { destination: merchant!.stripe_account_id },
      application_fee_amount: '59',
    });
    const res = await report(linkId, pi);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'paid',
      receipt: { status: 'succeeded', amount: 1000, brand: 'Visa', last_four: '4242', transaction_id: sale.id },
    });
    expect(await saleOf(linkId)).toMatchObject({
      status: 'completed',
      gateway_ref: pi,
      amount_cents: 1000,
      card_brand: 'Visa',
      last_four: '4242',
    });
    await emu.eventsSettled();
    // The event that followed, and a second report, change nothing: one record, one payment.success.
    expect((await report(linkId, pi)).body).toMatchObject({ status: 'paid' });
    expect(await recordsOf(pi)).toHaveLength(1);
    expect(
      (await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.transaction_id === sale.id),
    ).toHaveLength(1);
    // A paid link has no PaymentIntent to hand out.
    expect((await intent(linkId)).body.code).toBe('link_already_paid');
  });

  it('decline: 402 with the decline message, recorded; the link stays open and the same PaymentIntent pays with another card', async () => {
    const linkId = await newLink();
    const { pi, secret, r } = await confirmed(linkId, { card: '4000000000009995' });
    expect(r.error).toMatchObject({ decline_code: 'insufficient_funds' });
    const res = await report(linkId, pi);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    expect(
      (await rows(s, sql`select id from transactions where gateway_ref = ${pi} and status = 'declined'`)).length,
    ).toBe(1);
    expect((await linkView(linkId)).status).toBe('open');
    expect((await intent(linkId)).body.client_secret).toBe(secret);
    await confirm(secret, linkId);
    expect((await report(linkId, pi)).body).toMatchObject({ status: 'paid' });
  });

  for (const [outcome, expected] of [
    ['complete', 'paid'],
    ['fail', 'three_ds_failed'],
  ] as const) {
    it(`3-D Secure ${outcome === 'complete' ? 'passed' : 'failed'} in Stripe's window: ${expected}`, async () => {
      const linkId = await newLink();
      const { pi } = await confirmed(linkId, { card: '4000002500003155', threeDs: outcome });
      const res = await report(linkId, pi);
      if (outcome === 'complete') {
        expect(res.body).toMatchObject({ status: 'paid', receipt: { last_four: '3155' } });
      } else {
        expect(res.status).toBe(402);
        expect(res.body).toMatchObject({
          code: 'three_ds_failed',
          message: '3-D Secure authentication failed. Try again, or use another card.',
        });
        expect((await linkView(linkId)).status).toBe('open');
      }
    });
  }

  it('a require_3ds link asks Stripe for the challenge', async () => {
    const req = await s.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: m.auth,
      json: {
        merchant_key: m.merchant_key,
        order_id: `R-${randomUUID()}`,
        amount: '10.00',
        require_3ds: true,
        email: 'r@example.com',
      },
    });
    expect(req.status).toBe(200);
    const linkId: string = req.body.data.link_id;
    expect((await intent(linkId)).status).toBe(200);
    const created = emu.requests.find(
      (q) => q.path === '/v1/payment_intents' && (q.params.metadata as Record<string, string>)?.remit_link === linkId,
    )!;
    expect(created.params).toMatchObject({ payment_method_options: { card: { request_three_d_secure: 'challenge' } } });
  });

  it('two tabs: both get the same PaymentIntent; only one payment can take money, recorded once', async () => {
    const linkId = await newLink();
    const [a, b] = await Promise.all([intent(linkId), intent(linkId)]);
    expect(a.body.client_secret).toBe(b.body.client_secret);
    const pi = piOf(a.body.client_secret);
    expect(emu.intents().filter((x) => x.metadata.remit_link === linkId)).toHaveLength(1);
    const [ra, rb] = await Promise.all([confirm(a.body.client_secret, linkId), confirm(b.body.client_secret, linkId)]);
    expect([ra, rb].filter((r) => r.paymentIntent?.status === 'succeeded').length).toBeGreaterThanOrEqual(1);
    const reports = await Promise.all([report(linkId, pi), report(linkId, pi)]);
    expect(reports.map((r) => r.body.status)).toEqual(['paid', 'paid']);
    await emu.eventsSettled();
    expect(
      emu.intents().filter((x) => x.metadata.remit_link === linkId && x.amount_received - x.amount_refunded > 0),
    ).toHaveLength(1);
    expect(await recordsOf(pi)).toHaveLength(1);
  });

  it("a report of another link's PaymentIntent is refused, nothing recorded", async () => {
    const one = await newLink();
    const other = await newLink();
    const { pi } = await confirmed(one);
    const res = await report(other, pi);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect((await report(other, 'pi_nope')).status).toBe(502);
    expect((await saleOf(other)).status).toBe('pending');
  });
});

describe('one record per PaymentIntent, whoever learns of it first', () => {
  it("Stripe's event lost: the page's report records it", async () => {
    const linkId = await newLink();
    const res = await intent(linkId);
    const pi = piOf(res.body.client_secret);
    emu.dropEvents(pi, 10);
    await confirm(res.body.client_secret, linkId);
    expect((await report(linkId, pi)).body.status).toBe('paid');
    expect(await recordsOf(pi)).toHaveLength(1);
  });

  it("the page never reports: Stripe's event records it", async () => {
    const linkId = await newLink();
    const { pi } = await confirmed(linkId);
    await emu.eventsSettled();
    expect(await saleOf(linkId)).toMatchObject({ status: 'completed', gateway_ref: pi });
    expect((await linkView(linkId)).status).toBe('paid');
  });

  it('neither report nor event: the return, or else reconciliation, records it', async () => {
    const byReturn = await newLink();
    const a = await intent(byReturn);
    emu.dropEvents(piOf(a.body.client_secret), 10);
    await confirm(a.body.client_secret, byReturn);
    const back = await fetch(
      `${s.url}/pay/${byReturn}/return?payment_intent=${piOf(a.body.client_secret)}&redirect_status=failed`,
      { redirect: 'manual' },
    );
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/pay/${byReturn}`);
    expect((await saleOf(byReturn)).status).toBe('completed');

    const byReconcile = await newLink();
    const b = await intent(byReconcile);
    const pi = piOf(b.body.client_secret);
    emu.dropEvents(pi, 10);
    await confirm(b.body.client_secret, byReconcile);
    const rec = await reconcilePayments(s.core.ctx);
    expect(rec.intents.mismatches).toContainEqual(
      expect.objectContaining({ payment_intent: pi, problem: 'money_without_record', action: 'recorded' }),
    );
    expect((await saleOf(byReconcile)).status).toBe('completed');
    // Listed again, it matches now.
    expect((await reconcilePayments(s.core.ctx)).intents.mismatches.filter((x) => x.payment_intent === pi)).toEqual([]);
  });
});

describe('deleting a link', () => {
  const del = (linkId: string) =>
    s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${linkId}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });

  it('with its page open: the PaymentIntent is canceled at Stripe, so the page can no longer pay', async () => {
    const linkId = await newLink();
    const res = await intent(linkId);
    expect((await del(linkId)).status).toBe(200);
    expect(emu.intents().find((x) => x.id === piOf(res.body.client_secret))).toMatchObject({ status: 'canceled' });
    const r = await confirm(res.body.client_secret, linkId);
    expect(r.paymentIntent?.status).not.toBe('succeeded');
    expect(emu.intents().find((x) => x.id === piOf(res.body.client_secret))!.amount_received).toBe(0);
    expect((await intent(linkId)).status).toBe(410);
  });

  it("reporting the PaymentIntent Remit canceled for the deletion answers the link's own error, as its view does", async () => {
    const linkId = await newLink();
    const res = await intent(linkId);
    expect((await del(linkId)).status).toBe(200);
    const r = await confirm(res.body.client_secret, linkId);
    expect(r.error ?? r.paymentIntent).toBeTruthy();
    const rep = await report(linkId, piOf(res.body.client_secret));
    const view = await s.http({ method: 'GET', path: `/pay/api/links/${linkId}` });
    expect(view.status).toBe(410);
    expect(rep.status).toBe(410);
    expect(rep.body).toMatchObject({ code: 'link_cancelled', message: view.body.message });
    expect(view.body.code).toBe('link_cancelled');
    expect(await recordsOf(piOf(res.body.client_secret))).toEqual([]);
  });

  it('after the customer paid but before anything recorded it: refused 409, and the payment is recorded', async () => {
    const linkId = await newLink();
    const res = await intent(linkId);
    const pi = piOf(res.body.client_secret);
    emu.dropEvents(pi, 10);
    await confirm(res.body.client_secret, linkId);
    const d = await del(linkId);
    expect(d.status).toBe(409);
    expect(d.body.code).toBe('link_not_deletable');
    expect(await saleOf(linkId)).toMatchObject({ status: 'completed', gateway_ref: pi });
  });
});

describe('money for a link that cannot be paid', () => {
  it('a second PaymentIntent of the earlier flow that succeeds after the link was paid is refunded at once and listed', async () => {
    const linkId = await newLink();
    const { pi } = await confirmed(linkId);
    expect((await report(linkId, pi)).body.status).toBe('paid');
    // The earlier flow made a PaymentIntent per attempt: one more, confirmed in another tab.
    const stripe = (s.core.ctx.processor as unknown as { stripe: import('stripe').default }).stripe;
    const extra = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      metadata: { remit_link: linkId },
    });
    await stripeJsConfirmPayment(emu, extra.client_secret!, { card: '4242424242424242' });
    await emu.eventsSettled();
    const held = emu.intents().find((x) => x.id === extra.id)!;
    expect(held).toMatchObject({ status: 'succeeded', amount_received: 1000, amount_refunded: 1000 });
    expect(await recordsOf(extra.id)).toEqual([]);
    const [orphan] = await rows(
      s,
      sql`select pay_link_id, amount_cents::int as amount_cents, action from processor_orphans where gateway_ref = ${extra.id}`,
    );
    expect(orphan).toEqual({ pay_link_id: linkId, amount_cents: 1000, action: 'refunded' });
    const rec = await reconcilePayments(s.core.ctx);
    expect(rec.intents.mismatches).toContainEqual(
      expect.objectContaining({ payment_intent: extra.id, problem: 'orphan', action: 'refunded' }),
    );
    // Refunded once, however often it is found.
    expect(emu.refunds.filter((r) => r.payment_intent === extra.id)).toHaveLength(1);
  });
});

describe("the earlier flow's 3-D Secure attempts (open at upgrade)", () => {
  it('two tabs: the challenge a later attempt replaced, completed anyway, is refunded at once (probe finding)', async () => {
    const linkId = await newLink();
    const stripe = (s.core.ctx.processor as unknown as { stripe: import('stripe').default }).stripe;
    // Tab 1's attempt, replaced by tab 2's (marked failed), as the earlier flow left them.
    const first = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      metadata: { remit_key: `remit_authorize_${randomUUID().replace(/-/g, '')}` },
    });
    await s.core.ctx.db.execute(
      sql`insert into pay_challenges (id, pay_link_id, status, card_enc, brand, last_four, gateway_ref, created_at) values (${`chl_${randomUUID().replace(/-/g, '')}`}, ${linkId}, 'failed', '', 'Visa', '4242', ${first.id}, now())`,
    );
    // Tab 2 pays the link.
    const { pi } = await confirmed(linkId);
    expect((await report(linkId, pi)).body.status).toBe('paid');
    // Then the customer completes tab 1's challenge: Stripe takes the money and says so.
    await stripeJsConfirmPayment(emu, first.client_secret!, { card: '4242424242424242' });
    await emu.eventsSettled();
    expect(emu.intents().find((x) => x.id === first.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 1000,
      amount_refunded: 1000,
    });
    const [orphan] = await rows(s, sql`select action from processor_orphans where gateway_ref = ${first.id}`);
    expect(orphan).toEqual({ action: 'refunded' });
    expect(await recordsOf(first.id)).toEqual([]);
  });
});

describe('preauthorization links', () => {
  it('manual capture: authorized on the page, captured by the merchant', async () => {
    const customer = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Grace', email: 'grace@example.com' },
    });
    const req = await s.http({
      method: 'POST',
      path: `/api/v1/requests/${customer.body.data.customer_id}`,
      auth: m.auth,
      json: {
        merchant_key: m.merchant_key,
        order_id: `A-${randomUUID()}`,
        amount: '25.00',
        preauth: true,
        isRequestCard: true,
        allow_card: true,
        allow_ach: false,
      },
    });
    expect(req.status).toBe(200);
    const linkId: string = req.body.data.link_id;
    const { pi } = await confirmed(linkId);
    const created = emu.requests.find(
      (q) => q.path === '/v1/payment_intents' && (q.params.metadata as Record<string, string>)?.remit_link === linkId,
    )!;
    expect(created.params, JSON.stringify(created.params)).toMatchObject({
      capture_method: 'manual',
      setup_future_usage: 'off_session',
    });
    const res = await report(linkId, pi);
    expect(res.body).toMatchObject({ status: 'paid', receipt: { status: 'authorized' } });
    expect(emu.intents().find((x) => x.id === pi)).toMatchObject({ status: 'requires_capture' });
    // The card is kept for the customer (setup_future_usage): Stripe's token, never the number.
    const [kept] = await rows<{ number_enc: string; last4: string }>(
      s,
      sql`select number_enc, last4 from payment_methods where customer_id = ${customer.body.data.customer_id}`,
    );
    expect(kept!.last4).toBe('4242');
    expect(s.core.ctx.vault.decrypt(kept!.number_enc)).toMatch(/^token:cus_\w+\/pm_\w+$/);
    const cap = await merchantPost(s, m, '/preauth/capture', { transaction_id: req.body.data.sales_id });
    expect(cap.status).toBe(200);
    expect(emu.intents().find((x) => x.id === pi)).toMatchObject({ status: 'succeeded', amount_received: 2500 });
  });
});

async function cardToken(): Promise<string> {
  const c = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Ada', email: 'ada@example.com' },
  });
  const id = c.body.data.customer_id;
  const r = await s.http({
    method: 'POST',
    path: `/api/v1/customers/request-card/${id}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key },
  });
  expect(r.status).toBe(200);
  const [row] = await rows<{ id: string }>(
    s,
    sql`select id from pay_links where kind = 'card_request' and customer_id = ${id}`,
  );
  return row!.id;
}

describe('replays', () => {
  // The pay page's Stripe routes, each sent twice with one key: the second answer is the first,
  // byte for byte (the other keyed routes: plugins/idempotency.replay.test.ts).
  it('each Stripe route of the pay page replays its first answer byte for byte', async () => {
    const twice = async (path: string, json: object) => {
      const k = { 'idempotency-key': randomUUID() };
      const first = await s.http({ method: 'POST', path, json, headers: k });
      const again = await s.http({ method: 'POST', path, json, headers: k });
      expect(first.status, `${path}: ${first.text}`).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect([again.status, again.headers['content-type'], again.text]).toEqual([
        first.status,
        first.headers['content-type'],
        first.text,
      ]);
      return first.body;
    };
    const linkId = await newLink();
    const pi = await twice(`/pay/api/links/${linkId}/intent`, {});
    await confirm(pi.client_secret, linkId);
    expect(
      await twice(`/pay/api/links/${linkId}/intent/report`, { payment_intent: piOf(pi.client_secret) }),
    ).toMatchObject({
      status: 'paid',
    });
    const token = await cardToken();
    const seti = await twice(`/pay/api/cards/${token}/intent`, {});
    await stripeJsConfirmSetup(emu, seti.client_secret, { card: '5555555555554444' });
    expect(
      await twice(`/pay/api/cards/${token}/intent/report`, { setup_intent: seti.client_secret.split('_secret_')[0] }),
    ).toEqual({ status: 'saved', brand: 'Mastercard', last_four: '4444' });
  });
});

describe('stored cards through SetupIntents', () => {
  it('add-card confirms a SetupIntent; the saved card is charged off-session', async () => {
    const token = await cardToken();
    const [{ customer_id }] = (await rows<{ customer_id: number }>(
      s,
      sql`select customer_id from pay_links where id = ${token}`,
    )) as [{ customer_id: number }];
    const view = await s.http({ method: 'GET', path: `/pay/api/cards/${token}` });
    expect(view.body.card_entry).toMatchObject({ kind: 'stripe' });
    const a = await s.http({ method: 'POST', path: `/pay/api/cards/${token}/intent`, json: {}, headers: key() });
    const b = await s.http({ method: 'POST', path: `/pay/api/cards/${token}/intent`, json: {}, headers: key() });
    expect(a.status).toBe(200);
    expect(b.body.client_secret).toBe(a.body.client_secret);
    const r = await stripeJsConfirmSetup(emu, a.body.client_secret, { card: '5555555555554444' });
    expect(r.setupIntent).toMatchObject({ status: 'succeeded' });
    const seti = a.body.client_secret.split('_secret_')[0];
    const rep = await s.http({
      method: 'POST',
      path: `/pay/api/cards/${token}/intent/report`,
      json: { setup_intent: seti },
      headers: key(),
    });
    expect(rep.status).toBe(200);
    expect(rep.body).toEqual({ status: 'saved', brand: 'Mastercard', last_four: '4444' });
    const charged = await merchantPost(s, m, `/customers/charge/${customer_id}`, {
      amount: '7.00',
      order_id: `o-${randomUUID()}`,
    });
    expect(charged.status).toBe(200);
    expect(charged.body.data).toMatchObject({ status: 'completed', last_four: '4444', card_brand: 'Mastercard' });
  });
});

const BANK_ENTRY_MESSAGE =
  "Bank details are entered in Stripe's secure fields on the pay page; Remit does not accept bank account numbers while Stripe is the processor.";
const BANK = {
  routing_number: '110000000',
  account_number: '000123456789',
  account_type: 'checking',
  holder_name: 'Ada Lovelace',
};

describe("bank accounts are entered in Stripe's fields", () => {
  it('the old bank route and customers/add with bank_account answer 400 bank_entry_by_processor; no account number reaches Stripe', async () => {
    const linkId = await newLink({ allow_ach: true });
    const before = emu.requests.length;
    const paid = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      json: { method: 'ach', bank: BANK, authorization_accepted: true },
      headers: key(),
    });
    expect(paid.status).toBe(400);
    expect(paid.body).toMatchObject({ code: 'bank_entry_by_processor', message: BANK_ENTRY_MESSAGE });
    const added = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Ada', bank_account: BANK },
    });
    expect(added.status).toBe(400);
    expect(added.body).toMatchObject({ code: 'bank_entry_by_processor', message: BANK_ENTRY_MESSAGE });
    expect(emu.requests.slice(before)).toEqual([]);
    expect(
      await rows(
        s,
        sql`select c.id from customers c where c.merchant_id = ${m.merchant_id} and c.first_name = 'Ada' and c.id not in (select customer_id from pay_links where customer_id is not null)`,
      ),
    ).toEqual([]);
    expect((await linkView(linkId)).status).toBe('open');
  });

  const customerOf = async (token: string) =>
    (
      (await rows<{ customer_id: number }>(s, sql`select customer_id from pay_links where id = ${token}`))[0] as {
        customer_id: number;
      }
    ).customer_id;
  const setupFor = async (token: string) => {
    const a = await s.http({ method: 'POST', path: `/pay/api/cards/${token}/intent`, json: {}, headers: key() });
    expect(a.status).toBe(200);
    return { secret: a.body.client_secret as string, seti: String(a.body.client_secret).split('_secret_')[0]! };
  };
  const reportSetup = (token: string, seti: string) =>
    s.http({
      method: 'POST',
      path: `/pay/api/cards/${token}/intent/report`,
      json: { setup_intent: seti },
      headers: key(),
    });

  it('add-card keeps a bank account verified at once; a charge of it is an off-session us_bank_account debit, pending until Stripe settles it', async () => {
    const token = await cardToken();
    const customerId = await customerOf(token);
    const { secret, seti } = await setupFor(token);
    expect(
      emu.requests.filter((r) => r.path === '/v1/setup_intents' && r.auth === 'secret').at(-1)!.params
        .allowed_payment_method_types,
    ).toEqual(['card', 'us_bank_account']);
    const r = await stripeJsConfirmSetup(emu, secret, { bank: 'instant' });
    expect(r.setupIntent).toMatchObject({ status: 'succeeded' });
    const rep = await reportSetup(token, seti);
    expect(rep.status).toBe(200);
    expect(rep.body).toEqual({
      status: 'saved',
      brand: 'STRIPE TEST BANK',
      last_four: expect.stringMatching(/^\d{4}$/),
    });
    const c = await s.http({
      method: 'GET',
      path: `/api/v1/customers/${customerId}?merchant_key=${m.merchant_key}`,
      auth: m.auth,
    });
    expect(c.body.data.payment_methods).toEqual([
      expect.objectContaining({
        type: 'bank_account',
        brand: 'STRIPE TEST BANK',
        last_four: rep.body.last_four,
        is_default: true,
      }),
    ]);

    const charged = await merchantPost(s, m, `/customers/charge/${customerId}`, {
      amount: '7.00',
      order_id: `o-${randomUUID()}`,
    });
    expect(charged.status).toBe(200);
    expect(charged.body.data).toMatchObject({
      status: 'pending',
      payment_method: 'ach',
      last_four: rep.body.last_four,
    });
    const [row] = await rows<{ gateway_ref: string }>(
      s,
      sql`select gateway_ref from transactions where id = ${charged.body.data.transaction_id}`,
    );
    const pi = row!.gateway_ref;
    const create = emu.requests.find(
      (x) =>
        x.path === '/v1/payment_intents' &&
        x.auth === 'secret' &&
        x.params.payment_method &&
        (x.params.allowed_payment_method_types as string[])?.[0] === 'us_bank_account' &&
        x.params.amount === '700',
    );
    expect(create?.params).toMatchObject({
      off_session: 'true',
      confirm: 'true',
      customer: expect.stringMatching(/^cus_/),
    });
    expect(JSON.stringify(create?.params)).not.toContain('account_number');
    expect(emu.intents().find((x) => x.id === pi)).toMatchObject({ status: 'processing' });
    await emu.eventsSettled();
    await emu.settleAch(pi, 'succeeded');
    await emu.eventsSettled();
    const [done] = await rows<{ status: string }>(
      s,
      sql`select status from transactions where id = ${charged.body.data.transaction_id}`,
    );
    expect(done!.status).toBe('completed');
  });

  it("a bank account verified by microdeposits: 409 with Stripe's page until verified, then kept when the page is opened again; a failed debit is returned", async () => {
    const token = await cardToken();
    const customerId = await customerOf(token);
    const { secret, seti } = await setupFor(token);
    const r = await stripeJsConfirmSetup(emu, secret, { bank: 'microdeposits' });
    expect(r.setupIntent).toMatchObject({ status: 'requires_action' });
    const rep = await reportSetup(token, seti);
    expect(rep.status).toBe(409);
    expect(rep.body.code).toBe('bank_verification_pending');
    const url = String(r.setupIntent!.next_action.verify_with_microdeposits.hosted_verification_url);
    expect(rep.body.message).toContain(url);
    expect(await rows(s, sql`select id from payment_methods where customer_id = ${customerId}`)).toEqual([]);
    // The customer verifies on Stripe's page (the code it sent), days later; then opens the add-card page again.
    const stripe = (s.core.ctx.processor as unknown as { stripe: import('stripe').default }).stripe;
    await stripe.setupIntents.verifyMicrodeposits(seti, { descriptor_code: 'SM11AA' });
    const again = await s.http({ method: 'POST', path: `/pay/api/cards/${token}/intent`, json: {}, headers: key() });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('card_already_saved');
    expect(await rows(s, sql`select type, last4 from payment_methods where customer_id = ${customerId}`)).toEqual([
      { type: 'bank_account', last4: '6789' },
    ]);
    const charged = await merchantPost(s, m, `/customers/charge/${customerId}`, {
      amount: '5.00',
      order_id: `o-${randomUUID()}`,
    });
    expect(charged.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
    const [row] = await rows<{ gateway_ref: string }>(
      s,
      sql`select gateway_ref from transactions where id = ${charged.body.data.transaction_id}`,
    );
    await emu.eventsSettled();
    await emu.settleAch(row!.gateway_ref, 'failed');
    await emu.eventsSettled();
    const [done] = await rows<{ status: string }>(
      s,
      sql`select status from transactions where id = ${charged.body.data.transaction_id}`,
    );
    expect(done!.status).toBe('returned');
  });
});

describe('bank payments', () => {
  it('microdeposits: pending, bank_verification with the hosted page; completed by Stripe days later', async () => {
    const linkId = await newLink({ allow_ach: true, allow_card: false });
    const { pi, r } = await confirmed(linkId, { bank: 'microdeposits' });
    expect(r.paymentIntent).toMatchObject({ status: 'requires_action' });
    const res = await report(linkId, pi);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'bank_verification', verification_url: expect.stringContaining(emu.url) });
    expect(await saleOf(linkId)).toMatchObject({ payment_method: 'ach', status: 'pending', gateway_ref: pi });
    // A reload: the view carries Stripe's verification page beside the pending receipt.
    expect(await linkView(linkId)).toMatchObject({
      status: 'paid',
      pending_verification_url: res.body.verification_url,
      receipt: { method: 'ach', status: 'pending' },
    });
    const html = await s.http({ method: 'GET', path: `/pay/${linkId}` });
    expect(html.text).toContain(JSON.stringify(res.body.verification_url).slice(1, -1));
    const stripe = (s.core.ctx.processor as unknown as { stripe: import('stripe').default }).stripe;
    await stripe.paymentIntents.verifyMicrodeposits(pi, { amounts: [32, 45] });
    expect((await linkView(linkId)).pending_verification_url).toBeNull();
  });

  it('instant verification: a pending ACH sale, completed by payment_intent.succeeded', async () => {
    const linkId = await newLink({ allow_ach: true, allow_card: false });
    const { pi } = await confirmed(linkId, { bank: 'instant' });
    const res = await report(linkId, pi);
    expect(res.body).toMatchObject({ status: 'paid', receipt: { method: 'ach', status: 'pending' } });
    expect((await linkView(linkId)).pending_verification_url).toBeNull();
    await emu.eventsSettled();
    await emu.settleAch(pi, 'succeeded');
    await emu.eventsSettled();
    expect(await saleOf(linkId)).toMatchObject({ payment_method: 'ach', status: 'completed' });
  });
});

describe('a link taking card and bank at different totals (the fee passed on)', () => {
  // 100.00 with the fee passed on: the card's total carries the card fee, the bank's the ACH fee.
  const both = async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: m.auth,
      json: {
        merchant_key: m.merchant_key,
        amount: '100.00',
        order_id: `o-${randomUUID()}`,
        pass_fee: true,
        allow_card: true,
        allow_ach: true,
      },
    });
    expect(res.status).toBe(200);
    return res.body.data.link_id as string;
  };
  const pick = (linkId: string, method: 'card' | 'ach') =>
    s.http({ method: 'POST', path: `/pay/api/links/${linkId}/intent`, json: { method }, headers: key() });
  const totals = async (linkId: string) => (await linkView(linkId)).amounts.total as { card: number; ach: number };

  it('offers both; picking the bank sets the amount and fee to the bank total; paying records what Stripe took', async () => {
    const linkId = await both();
    const t = await totals(linkId);
    expect(t.card).not.toBe(t.ach);
    const res = await intent(linkId);
    const pi = piOf(res.body.client_secret);
    expect(emu.intents().find((x) => x.id === pi)).toMatchObject({ amount: t.card });
    expect(emu.paymentIntents.get(pi)!.payment_method_types).toEqual(['card', 'us_bank_account']);
    const cardFee = emu.paymentIntents.get(pi)!.application_fee_amount;
    const ach = await pick(linkId, 'ach');
    expect(ach.status).toBe(200);
    expect(ach.body.client_secret).toBe(res.body.client_secret);
    expect(emu.paymentIntents.get(pi)).toMatchObject({ amount: t.ach });
    const achFee = emu.paymentIntents.get(pi)!.application_fee_amount;
    expect(achFee).not.toBe(cardFee);
    const back = await pick(linkId, 'card');
    expect(emu.paymentIntents.get(pi)).toMatchObject({ amount: t.card, application_fee_amount: cardFee });
    expect(back.body.client_secret).toBe(res.body.client_secret);
    await pick(linkId, 'ach');
    const r = await confirm(res.body.client_secret, linkId, { bank: 'instant' });
    expect(r.paymentIntent).toMatchObject({ status: 'processing' });
    const rep = await report(linkId, pi);
    expect(rep.body).toMatchObject({ status: 'paid', receipt: { method: 'ach', amount: t.ach } });
    expect(await saleOf(linkId)).toMatchObject({ payment_method: 'ach', amount_cents: t.ach, gateway_ref: pi });
    // The fee Stripe keeps back is the fee Remit records for the bank payment.
    const [{ fee }] = (await rows<{ fee: number }>(
      s,
      sql`select t.fee_cents::int as fee from transactions t join pay_links l on l.sales_id = t.id where l.id = ${linkId}`,
    )) as [{ fee: number }];
    expect(emu.paymentIntents.get(pi)!.application_fee_amount).toBe(fee);
    // Once the payment is under way the amount no longer moves.
    const late = await pick(linkId, 'card');
    expect(late.status).toBe(409);
    expect(emu.paymentIntents.get(pi)).toMatchObject({ amount: t.ach });
  });

  it("a page that pays by card at the bank's total: refunded at once, not recorded; the link stays open with a new PaymentIntent", async () => {
    const linkId = await both();
    const t = await totals(linkId);
    const res = await intent(linkId);
    const pi = piOf(res.body.client_secret);
    await pick(linkId, 'ach');
    const r = await confirm(res.body.client_secret, linkId, { card: '4242424242424242' });
    expect(r.paymentIntent).toMatchObject({ status: 'succeeded', amount: t.ach });
    const rep = await report(linkId, pi);
    expect(rep.status).toBe(409);
    expect(rep.body.code).toBe('payment_amount_mismatch');
    await emu.eventsSettled();
    expect(emu.intents().find((x) => x.id === pi)).toMatchObject({ amount_received: t.ach, amount_refunded: t.ach });
    expect(await recordsOf(pi)).toEqual([]);
    expect((await linkView(linkId)).status).toBe('open');
    const again = await intent(linkId);
    expect(again.status).toBe(200);
    expect(piOf(again.body.client_secret)).not.toBe(pi);
    const { pi: next } = { pi: piOf(again.body.client_secret) };
    await confirm(again.body.client_secret, linkId, { card: '4242424242424242' });
    expect((await report(linkId, next)).body).toMatchObject({ status: 'paid', receipt: { amount: t.card } });
    expect(await saleOf(linkId)).toMatchObject({ payment_method: 'card', amount_cents: t.card, gateway_ref: next });
  });

  it('bank on a card-only link: 400 method_not_allowed; a bad method: 400', async () => {
    const linkId = await newLink({ allow_ach: false });
    expect((await pick(linkId, 'ach')).body.code).toBe('method_not_allowed');
    const bad = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/intent`,
      json: { method: 'cash' },
      headers: key(),
    });
    expect(bad.status).toBe(400);
  });
});

describe('no card number in what Remit sends Stripe', () => {
  it('every request made with the secret key carries no card number', () => {
    const secret = emu.requests.filter((r) => r.auth === 'secret');
    expect(secret.length).toBeGreaterThan(20);
    for (const r of secret) {
      expect(JSON.stringify(r.params)).not.toMatch(/\b(4242424242424242|5555555555554444|4000\d{12})\b/);
      expect(JSON.stringify(r.params)).not.toContain('"number"');
    }
  });
});
