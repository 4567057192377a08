import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, gatewayRefOf, merchantPost, noonClock } from '../testing/payments.js';
import { stripeBankCustomer, stripeCardCustomer } from '../testing/stripe-cards.js';
import {
  emulatedStripe,
  startStripeEmulator,
  stripeJsConfirmPayment,
  type StripeEmulator,
} from '../testing/stripe-emulator.js';

/**
 * `payment.failed` with Stripe, against the Stripe emulator: a stored customer's card declined
 * when charged, a pay link's PaymentIntent declined (from Stripe's `payment_intent.payment_failed`,
 * once, whether or not the page reports it), and a bank debit Stripe fails.
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

const failedOf = async (orderId: string) =>
  (await eventsOf(s, m.merchant_id, 'payment.failed')).filter((e) => e.order_id === orderId);

it("a stored customer's card declined by Stripe: 402 and payment.failed naming the declined transaction", async () => {
  // Stripe's card that saves but declines every charge.
  const customer = await stripeCardCustomer(s, m, emu, '4000000000000341');
  const order = `o-${randomUUID()}`;
  const res = await merchantPost(s, m, `/customers/charge/${customer}`, { amount: '12.50', order_id: order });
  expect([res.status, res.body.code]).toEqual([402, 'card_declined']);
  expect(await failedOf(order)).toEqual([
    {
      transaction_id: res.body.transaction_id,
      merchant_id: m.merchant_id,
      order_id: order,
      amount: 12.5,
      code: 'card_declined',
      message: res.body.message,
      method: 'card',
    },
  ]);
});

it("a pay link's PaymentIntent declined: payment_intent.payment_failed makes one payment.failed; the page's report adds none", async () => {
  const order = `o-${randomUUID()}`;
  const made = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '10.00', order_id: order },
  });
  const linkId = String(made.body.data.payment_link).split('/').pop()!;
  const opened = await s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/intent`,
    json: {},
    headers: { 'idempotency-key': randomUUID() },
  });
  const secret: string = opened.body.client_secret;
  const r = await stripeJsConfirmPayment(emu, secret, { card: '4000000000009995' }, `${s.url}/pay/${linkId}/return`);
  expect(r.error).toMatchObject({ decline_code: 'insufficient_funds' });
  await emu.eventsSettled();
  expect(emu.events.some((e) => e.type === 'payment_intent.payment_failed')).toBe(true);
  const fromEvent = await failedOf(order);
  expect(fromEvent).toEqual([
    {
      merchant_id: m.merchant_id,
      order_id: order,
      amount: 10,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
      method: 'card',
    },
  ]);
  const reported = await s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/intent/report`,
    json: { payment_intent: secret.split('_secret_')[0] },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(reported.status).toBe(402);
  expect(await failedOf(order)).toHaveLength(1);
});

it("a bank debit Stripe fails (payment_intent.payment_failed): payment.failed method 'ach', code ach_returned", async () => {
  const customer = await stripeBankCustomer(s, m, emu);
  const order = `o-${randomUUID()}`;
  const res = await merchantPost(s, m, `/customers/charge/${customer}`, { amount: '25.00', order_id: order });
  expect(res.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
  const id = res.body.data.transaction_id as string;
  emu.settleAch(await gatewayRefOf(s, id), 'failed');
  await emu.eventsSettled();
  const failed = await failedOf(order);
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatchObject({
    transaction_id: id,
    order_id: order,
    amount: 25,
    code: 'ach_returned',
    method: 'ach',
  });
  expect(failed[0].message).not.toBe('');
});
