import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, gatewayRefOf, merchantPost, noonClock, rows, txnRow } from '../testing/payments.js';
import {
  emulatedStripe,
  startStripeEmulator,
  stripeJsConfirmPayment,
  type StripeEmulator,
} from '../testing/stripe-emulator.js';
import { stripeBankCustomer, stripeCardCustomer } from '../testing/stripe-cards.js';
import { randomUUID } from 'node:crypto';
import { processorKey } from '@remit/core';
import { operationKey } from '../plugins/idempotency.js';

/**
 * The Stripe connector end to end: the real server over HTTP, configured as an operator would
 * (REMIT_PROCESSOR=stripe, STRIPE_SECRET_KEY, REMIT_STRIPE_API_URL), the official SDK talking to
 * the Stripe emulator.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
let visa: number;
beforeAll(async () => {
  emu = await startStripeEmulator();
  const processor = emulatedStripe(emu);
  s = await startTestServer({ now: noonClock(), processor });
  m = await newMerchant(s);
  visa = await stripeCardCustomer(s, m, emu);
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

const post = (path: string, body: object, key?: string) => merchantPost(s, m, path, body, key);
const chargeOf = (customer: number, amount: string, extra: object = {}, key?: string) =>
  post(
    `/customers/charge/${customer}`,
    { amount, order_id: `o-${Math.random().toString(36).slice(2)}`, ...extra },
    key,
  );
const refOf = (id: string) => gatewayRefOf(s, id);
/** A pay link's PaymentIntent confirmed with `number` as Stripe.js would, and the page's report. */
async function payPageWith(number: string) {
  const made = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '5.00' },
  });
  const linkId = String(made.body.data.payment_link).split('/').pop()!;
  const opened = await s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/intent`,
    json: {},
    headers: { 'idempotency-key': randomUUID() },
  });
  const pid = String(opened.body.client_secret).split('_secret_')[0]!;
  await stripeJsConfirmPayment(emu, opened.body.client_secret, { card: number });
  const res = await s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/intent/report`,
    json: { payment_intent: pid },
    headers: { 'idempotency-key': randomUUID() },
  });
  return { res, pid };
}

describe('stored cards with Stripe', () => {
  it('are tokenized at Stripe: the database keeps the Customer and PaymentMethod, never the number', async () => {
    const stored = await rows<{ number_enc: string; last4: string }>(
      s,
      sql`select number_enc, last4 from payment_methods where customer_id = ${visa}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.last4).toBe('4242');
    expect(s.core.ctx.vault.decrypt(stored[0]!.number_enc)).toMatch(/^token:cus_\w+\/pm_\w+$/);
    const dump = await rows<{ t: string }>(s, sql`select string_agg(p::text, '') as t from payment_methods p`);
    expect(dump[0]!.t).not.toContain('4242424242424242');
  });
});

describe('card sales as PaymentIntents', () => {
  it('approved: a succeeded PaymentIntent for the amount in cents, its id the gateway reference', async () => {
    const res = await chargeOf(visa, '12.34');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: true,
      data: { status: 'completed', amount: '12.34', last_four: '4242', card_brand: 'Visa' },
    });
    expect(res.body.data.auth_code).toMatch(/^\d{6}$/);
    const pi = emu.paymentIntents.get(await refOf(res.body.data.transaction_id))!;
    expect(pi).toMatchObject({
      amount: 1234,
      amount_received: 1234,
      currency: 'usd',
      status: 'succeeded',
      capture_method: 'automatic',
    });
    const create = emu.requests.find((r) => r.path === '/v1/payment_intents' && r.params.amount === '1234')!;
    expect(create.idempotencyKey).toMatch(/^remit_authorize_[0-9a-f]{48}$/);
  });

  it("the Stripe Idempotency-Key is the operation's: from the client's (scope, Idempotency-Key) when keyed, else from the record", async () => {
    const key = randomUUID();
    const keyed = await chargeOf(visa, '12.35', {}, key);
    expect(keyed.status).toBe(200);
    const sent = emu.requests.find((r) => r.path === '/v1/payment_intents' && r.params.amount === '1235')!;
    // Computed from the arguments alone: no request, transaction or async context needed.
    expect(sent.idempotencyKey).toBe(processorKey(operationKey(m.auth[0], key), 'authorize', 'any record'));
    const unkeyed = await chargeOf(visa, '12.36');
    expect(unkeyed.status).toBe(200);
    const plain = emu.requests.find((r) => r.path === '/v1/payment_intents' && r.params.amount === '1236')!;
    expect(plain.idempotencyKey).toBe(processorKey(null, 'authorize', unkeyed.body.data.transaction_id));
  });

  for (const [number, code, message] of [
    ['4000000000000002', 'card_declined', 'Your card was declined.'],
    ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000000000000069', 'expired_card', 'Your card has expired.'],
    ['4000000000000127', 'incorrect_cvc', "Your card's security code is incorrect."],
  ] as const) {
    it(`declined (${code}): the pay page's report answers 402 with our code and message, the declined attempt recorded`, async () => {
      const { res, pid } = await payPageWith(number);
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({ result: false, code, message });
      const [row] = await rows<{ status: string; amount_cents: number }>(
        s,
        sql`select status, amount_cents::int as amount_cents from transactions where gateway_ref = ${pid}`,
      );
      expect(row).toMatchObject({ status: 'declined', amount_cents: 500 });
      expect(emu.paymentIntents.get(pid)).toMatchObject({ status: 'requires_payment_method' });
    });
  }
});

describe('preauthorizations', () => {
  it('authorize (manual capture), increase, decrease, capture: Stripe holds the increase and captures the lower amount', async () => {
    const res = await chargeOf(visa, '10.00', { preAuth: true });
    expect(res.status).toBe(200);
    const id = res.body.data.transaction_id;
    const pi = emu.paymentIntents.get(await refOf(id))!;
    expect(pi).toMatchObject({
      status: 'requires_capture',
      capture_method: 'manual',
      amount: 1000,
      amount_capturable: 1000,
    });
    const update = (last: string, next: string) =>
      post('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: last,
        new_authorized_amount: next,
        order_id: 'o',
      });
    expect((await update('10.00', '15.00')).status).toBe(200);
    expect(pi).toMatchObject({ amount: 1500, amount_capturable: 1500 });
    expect((await update('15.00', '12.00')).status).toBe(200);
    // A decrease asks nothing of Stripe; back up within what Stripe holds asks nothing either.
    expect((await update('12.00', '14.00')).status).toBe(200);
    expect(pi).toMatchObject({ amount: 1500 });
    expect(emu.requests.filter((r) => r.path.endsWith('/increment_authorization'))).toHaveLength(1);
    const cap = await post('/preauth/capture', { transaction_id: id });
    expect(cap.status).toBe(200);
    expect(cap.body.data).toMatchObject({ amount: '14.00', transaction_id: id });
    expect(pi).toMatchObject({ status: 'succeeded', amount_received: 1400, amount_capturable: 0 });
  });

  it('void cancels the PaymentIntent', async () => {
    const res = await chargeOf(visa, '10.00', { preAuth: true });
    const id = res.body.data.transaction_id;
    expect((await post('/preauth/void', { transaction_id: id })).status).toBe(200);
    expect(emu.paymentIntents.get(await refOf(id))).toMatchObject({ status: 'canceled', amount_capturable: 0 });
    expect(await txnRow(s, id)).toMatchObject({ status: 'voided' });
  });
});

describe('refunds', () => {
  it('partial, repeated, then the rest: Stripe refunds each, keyed by our refund record', async () => {
    const res = await chargeOf(visa, '20.00');
    const id = res.body.data.transaction_id;
    const pid = await refOf(id);
    const first = await post('/order/sales-return', { transaction_id: id, amount: '5.00' });
    expect(first.status).toBe(200);
    expect((await post('/order/sales-return', { transaction_id: id, amount: '5.00' })).status).toBe(200);
    expect((await post('/order/sales-return', { transaction_id: id, amount: '10.00' })).status).toBe(200);
    const made = emu.refunds.filter((r) => r.payment_intent === pid);
    expect(made.map((r) => r.amount)).toEqual([500, 500, 1000]);
    expect(made[0]!.metadata).toEqual({ remit_record: first.body.data.transaction_id });
    expect(await txnRow(s, id)).toMatchObject({ status: 'refunded', refunded: 2000 });
    expect(await eventsOf(s, m.merchant_id, 'payment.refund')).toEqual(
      expect.arrayContaining([expect.objectContaining({ parent_transaction_id: id, amount: 10 })]),
    );
  });

  it('a refund over what is left is refused before Stripe is asked', async () => {
    const res = await chargeOf(visa, '3.00');
    const id = res.body.data.transaction_id;
    const before = emu.requests.length;
    const over = await post('/order/sales-return', { transaction_id: id, amount: '3.01' });
    expect(over.status).toBe(400);
    expect(emu.requests.length).toBe(before);
  });

  it('a sale voided the same day is refunded in full at Stripe', async () => {
    const res = await chargeOf(visa, '7.00');
    const id = res.body.data.transaction_id;
    expect((await post('/order/sales-void', { transaction_id: id })).status).toBe(200);
    const pid = await refOf(id);
    expect(emu.refunds.filter((r) => r.payment_intent === pid)).toEqual([
      expect.objectContaining({ amount: 700, status: 'succeeded' }),
    ]);
  });
});

// A lost answer (a timeout, Stripe's 5xx) and its reconciliation: stripe-flows.test.ts.

describe('POST /stripe/webhooks', () => {
  const deliver = async (event: object, sign: (payload: string) => string = (p) => emu.sign(p)) => {
    const payload = JSON.stringify(event, null, 2);
    const res = await fetch(`${s.url}/stripe/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': sign(payload) },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const achSale = async () => {
    const customer = await stripeBankCustomer(s, m, emu);
    const res = await chargeOf(customer, '25.00');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
    const id = res.body.data.transaction_id as string;
    const pid = await refOf(id);
    expect(emu.paymentIntents.get(pid)).toMatchObject({
      status: 'processing',
      amount: 2500,
      payment_method_types: ['us_bank_account'],
    });
    return { id, pid };
  };
  const achUpdates = async (id: string) =>
    (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);

  it('an ACH debit Stripe reports succeeded: Approved once, however often the event comes', async () => {
    const { id, pid } = await achSale();
    const event = emu.settleAch(pid, 'succeeded');
    const first = await deliver(event);
    expect(first).toEqual({ status: 200, body: { received: true, event_id: event.id, handled: 'applied' } });
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', settled: true });
    expect((await deliver(event)).body.handled).toBe('duplicate');
    expect(await achUpdates(id)).toEqual([
      { merchant_id: m.merchant_id, status: 'Approved', tran_id: id, message: 'Approved' },
    ]);
  });

  it('a failed ACH debit is returned with its return record; a late succeeded event after it changes nothing', async () => {
    const { id, pid } = await achSale();
    const failed = emu.settleAch(pid, 'failed');
    expect((await deliver(failed)).body.handled).toBe('applied');
    expect(await txnRow(s, id)).toMatchObject({ status: 'returned' });
    const [ret] = await rows<{ id: string; type: string }>(
      s,
      sql`select id, type from transactions where linked_txn_id = ${id}`,
    );
    expect(ret).toMatchObject({ type: 'Return' });
    expect(await achUpdates(id)).toEqual([
      {
        merchant_id: m.merchant_id,
        status: 'Declined',
        tran_id: id,
        message: 'Insufficient Funds',
        return_transaction_id: ret!.id,
      },
    ]);
    const stale = emu.event('payment_intent.succeeded', { ...emu.paymentIntents.get(pid), status: 'succeeded' });
    expect((await deliver(stale)).body.handled).toBe('ignored');
    expect(await txnRow(s, id)).toMatchObject({ status: 'returned' });
    expect(await achUpdates(id)).toHaveLength(1);
  });

  it('a bad or stale signature: 400, nothing changes', async () => {
    const { id, pid } = await achSale();
    const event = emu.settleAch(pid, 'succeeded');
    const before = await tableCounts(s.core);
    const wrong = await deliver(event, (p) => emu.sign(p, { secret: 'whsec_not_ours' }));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ result: false, code: 'invalid_request' });
    // One line saying what is wrong, not the SDK's paragraph of advice and links.
    expect(wrong.body.message).toBe(
      'Stripe-Signature does not verify: no v1 signature matches this body under the configured STRIPE_WEBHOOK_SECRET',
    );
    const stale = await deliver(event, (p) => emu.sign(p, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
    expect([stale.status, stale.body.message]).toEqual([
      400,
      "Stripe-Signature does not verify: its timestamp is more than 300 s behind this server's clock",
    ]);
    const unsigned = await fetch(`${s.url}/stripe/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect([unsigned.status, ((await unsigned.json()) as { message: string }).message]).toEqual([
      400,
      'Stripe-Signature does not verify: the header is missing',
    ]);
    expect(await tableCounts(s.core)).toEqual(before);
    expect(await txnRow(s, id)).toMatchObject({ status: 'pending' });
    // The same event, signed, still applies: the refusals claimed nothing.
    expect((await deliver(event)).body.handled).toBe('applied');
  });
});
