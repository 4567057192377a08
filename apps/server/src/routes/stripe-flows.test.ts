import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createProcessor, PROCESSING_MESSAGE, PROCESSOR_NEVER_MADE_MESSAGE, reconcilePayments } from '@remit/core';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, gatewayRefOf, merchantPost, noonClock, rows, txnRow } from '../testing/payments.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';
import { stripeBankCustomer, stripeCardCustomer } from '../testing/stripe-cards.js';
import { eventually } from '@remit/core/testing';

/**
 * The Stripe flows that wait on someone else: 3-D Secure (the customer at Stripe's page), ACH (the
 * bank, days later), and answers that never came (reconciliation). The real server over HTTP, the
 * official SDK against the Stripe emulator; webhooks signed, replayed and out of order.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  emu = await startStripeEmulator();
  const processor = emulatedStripe(emu);
  s = await startTestServer({ now: noonClock(), processor });
  m = await newMerchant(s);
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

const deliver = async (event: object) => {
  const payload = JSON.stringify(event);
  const res = await fetch(`${s.url}/stripe/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': emu.sign(payload) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { handled: string } };
};
const successes = async (id: string) =>
  (await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.transaction_id === id);

// 3-D Secure in Stripe's own window, with the Payment Element: stripe-intents.test.ts.

describe('ACH debits of a kept bank account', () => {
  // The mandate is Stripe's now: accepted in the Payment Element when the account is kept (stripe-intents.test.ts).
  const achPay = async () => {
    const customer = await stripeBankCustomer(s, m, emu);
    const res = await merchantPost(s, m, `/customers/charge/${customer}`, {
      amount: '10.00',
      order_id: `o-${randomUUID()}`,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
    const id = res.body.data.transaction_id as string;
    return { id, pid: await gatewayRefOf(s, id) };
  };
  const achUpdates = async (id: string) =>
    (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);

  it('succeeded, then returned by the bank: Approved, then Declined with the return record; replays change nothing', async () => {
    const { id, pid } = await achPay();
    const succeeded = emu.settleAch(pid, 'succeeded');
    expect((await deliver(succeeded)).body.handled).toBe('applied');
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', settled: true });
    const returned = emu.returnAch(pid);
    expect((await deliver(returned)).body.handled).toBe('applied');
    expect((await deliver(returned)).body.handled).toBe('duplicate');
    expect((await deliver(succeeded)).body.handled).toBe('duplicate');
    expect(await txnRow(s, id)).toMatchObject({ status: 'returned' });
    const [ret] = await rows<{ id: string; type: string; net: number }>(
      s,
      sql`select id, type, net_cents::int as net from transactions where linked_txn_id = ${id}`,
    );
    expect(ret).toMatchObject({ type: 'Return' });
    expect(await achUpdates(id)).toEqual([
      { merchant_id: m.merchant_id, status: 'Approved', tran_id: id, message: 'Approved' },
      {
        merchant_id: m.merchant_id,
        status: 'Declined',
        tran_id: id,
        message: 'Insufficient Funds',
        return_transaction_id: ret!.id,
      },
    ]);
    const [row] = await rows<{ decline_reason: string }>(
      s,
      sql`select decline_reason from transactions where id = ${id}`,
    );
    expect(row!.decline_reason).toBe('R01: Insufficient Funds');
  });

  it('out of order: the return arrives before the success: returned once, the late success ignored', async () => {
    const { id, pid } = await achPay();
    const succeeded = emu.settleAch(pid, 'succeeded');
    const returned = emu.returnAch(pid);
    expect((await deliver(returned)).body.handled).toBe('applied');
    expect((await deliver(succeeded)).body.handled).toBe('ignored');
    expect(await txnRow(s, id)).toMatchObject({ status: 'returned' });
    expect((await achUpdates(id)).map((e) => e.status)).toEqual(['Declined']);
    expect(await rows(s, sql`select id from transactions where linked_txn_id = ${id}`)).toHaveLength(1);
  });

  it('no webhook ever comes: reconciliation asks Stripe and settles the debit once', async () => {
    const customer = await stripeBankCustomer(s, m, emu);
    const res = await merchantPost(s, m, `/customers/charge/${customer}`, { amount: '25.00', order_id: 'ach-silent' });
    const id = res.body.data.transaction_id;
    emu.settleAch(await gatewayRefOf(s, id), 'succeeded');
    expect((await reconcilePayments(s.core.ctx, { pendingAfterMs: 60_000 })).settled).toBe(0);
    const report = await reconcilePayments(s.core.ctx, { pendingAfterMs: 0 });
    expect(report.settled).toBeGreaterThanOrEqual(1);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed' });
    expect((await achUpdates(id)).map((e) => e.status)).toEqual(['Approved']);
    await reconcilePayments(s.core.ctx, { pendingAfterMs: 0 });
    expect(await achUpdates(id)).toHaveLength(1);
  });
});

describe('unknown outcomes: processing, then reconciliation', () => {
  let visa: number;
  beforeAll(async () => {
    visa = await stripeCardCustomer(s, m, emu);
  });
  const charge = (amount: string, key: string) =>
    merchantPost(s, m, `/customers/charge/${visa}`, { amount, order_id: key }, key);
  const intentsOf = (cents: string) =>
    emu.requests.filter((r) => r.path === '/v1/payment_intents' && r.method === 'POST' && r.params.amount === cents);

  it('Stripe charged but its answer never came: 202 processing; reconciliation finds the PaymentIntent: exactly one charge', async () => {
    const intents = emu.paymentIntents.size;
    emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
    const first = await charge('9.99', 'lost-answer-1');
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      result: true,
      message: PROCESSING_MESSAGE,
      data: { status: 'processing', is_status: 7, amount: '9.99', fee_amount: 0 },
    });
    const id = first.body.transaction_id;
    expect(emu.paymentIntents.size).toBe(intents + 1);
    // The client's retry gets the same answer; nothing is sent again.
    const retry = await charge('9.99', 'lost-answer-1');
    expect(retry.status).toBe(202);
    expect(retry.body.transaction_id).toBe(id);
    expect(await successes(id)).toEqual([]);

    const report = await reconcilePayments(s.core.ctx);
    expect(report).toMatchObject({ settled: 1, failed: 0 });
    const pid = [...emu.paymentIntents.keys()].at(-1)!;
    expect(await gatewayRefOf(s, id)).toBe(pid);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', is_status: 2, amount: 999, fee: 59, net: 940 });
    expect(await successes(id)).toEqual([expect.objectContaining({ transaction_id: id, amount: 9.99 })]);
    expect((await reconcilePayments(s.core.ctx)).settled).toBe(0);
    expect(await successes(id)).toHaveLength(1);
    expect(emu.paymentIntents.size).toBe(intents + 1);
    expect(new Set(intentsOf('999').map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it('Stripe answered 5xx and never made it: processing until Stripe has had time to know; then declined, nothing charged', async () => {
    const intents = emu.paymentIntents.size;
    emu.failRequests(/^\/v1\/payment_intents$/, 3, 500);
    const first = await charge('8.88', 'five-hundred-1');
    expect(first.status).toBe(202);
    const id = first.body.transaction_id;
    expect((await reconcilePayments(s.core.ctx)).settled).toBe(0);
    expect((await txnRow(s, id)).status).toBe('processing');
    expect((await reconcilePayments(s.core.ctx, { absentAfterMs: 0 })).settled).toBe(1);
    const [row] = await rows<{ status: string; decline_reason: string }>(
      s,
      sql`select status, decline_reason from transactions where id = ${id}`,
    );
    expect(row).toEqual({ status: 'declined', decline_reason: PROCESSOR_NEVER_MADE_MESSAGE });
    expect(emu.paymentIntents.size).toBe(intents);
  });

  it("Stripe's event settles a processing payment before reconciliation does; replayed, it changes nothing", async () => {
    emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
    const first = await charge('7.77', 'lost-answer-2');
    expect(first.status).toBe(202);
    const id = first.body.transaction_id;
    const pid = [...emu.paymentIntents.keys()].at(-1)!;
    const event = emu.event('payment_intent.succeeded', { ...emu.paymentIntents.get(pid) });
    expect((await deliver(event)).body.handled).toBe('applied');
    expect((await deliver(event)).body.handled).toBe('duplicate');
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed' });
    expect(await gatewayRefOf(s, id)).toBe(pid);
    await reconcilePayments(s.core.ctx);
    expect(await successes(id)).toHaveLength(1);
  });

  it('a preauthorization whose answer was lost becomes authorized, and can be captured', async () => {
    emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
    const first = await merchantPost(s, m, `/customers/charge/${visa}`, {
      amount: '6.00',
      order_id: 'lost-preauth',
      preAuth: true,
    });
    expect(first.status).toBe(202);
    const id = first.body.transaction_id;
    await reconcilePayments(s.core.ctx);
    expect(await txnRow(s, id)).toMatchObject({ status: 'authorized', authorized: 600 });
    expect((await merchantPost(s, m, '/preauth/capture', { transaction_id: id })).status).toBe(200);
    expect(emu.paymentIntents.get(await gatewayRefOf(s, id))).toMatchObject({
      status: 'succeeded',
      amount_received: 600,
    });
  });

  const callsOf = (pid: string) =>
    rows<{ kind: string; status: string; attempts: number }>(
      s,
      sql`select kind, status, attempts from processor_calls where gateway_ref = ${pid}`,
    );

  it('a refund whose answer was lost stands recorded; reconciliation sends it again with its key: one refund at Stripe', async () => {
    const sale = await charge('20.00', 'refund-lost-sale');
    expect(sale.status).toBe(200);
    const id = sale.body.transaction_id;
    const pid = await gatewayRefOf(s, id);
    // Every try's answer lost: three tries, each sent twice (the SDK resends once on a closed connection).
    emu.dropAnswers(/^\/v1\/refunds$/, 6);
    // No Idempotency-Key: a retry by the client would be a new refund; so the client is not asked to retry.
    const res = await merchantPost(s, m, '/order/sales-return', { transaction_id: id, amount: '5.00' });
    expect(res.status).toBe(200);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', refunded: 500 });
    expect(await callsOf(pid)).toEqual([{ kind: 'refund', status: 'unconfirmed', attempts: 0 }]);
    expect(emu.refunds.filter((r) => r.payment_intent === pid)).toHaveLength(1);

    const report = await reconcilePayments(s.core.ctx);
    expect(report.calls).toMatchObject({ confirmed: 1, refused: 0 });
    expect(await callsOf(pid)).toEqual([{ kind: 'refund', status: 'confirmed', attempts: 1 }]);
    expect(emu.refunds.filter((r) => r.payment_intent === pid).map((r) => r.amount)).toEqual([500]);
    expect(emu.requests.filter((r) => r.path === '/v1/refunds').at(-1)!.replayed).toBe(true);
  });

  it('a capture Stripe answered 5xx and never did: recorded; reconciliation captures it, once', async () => {
    const held = await merchantPost(s, m, `/customers/charge/${visa}`, {
      amount: '11.00',
      order_id: 'capture-5xx',
      preAuth: true,
    });
    const id = held.body.transaction_id;
    const pid = await gatewayRefOf(s, id);
    emu.failRequests(/\/capture$/, 3, 503);
    const res = await merchantPost(s, m, '/preauth/capture', { transaction_id: id });
    expect(res.status).toBe(200);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed' });
    expect(emu.paymentIntents.get(pid)).toMatchObject({ status: 'requires_capture' });
    expect((await reconcilePayments(s.core.ctx)).calls).toMatchObject({ confirmed: 1 });
    expect(emu.paymentIntents.get(pid)).toMatchObject({ status: 'succeeded', amount_received: 1100 });
    expect((await reconcilePayments(s.core.ctx)).calls).toEqual({ confirmed: 0, refused: 0, left: 0 });
  });
});

// The pay page's card payments are the link's one PaymentIntent, recorded by report, event, return or
// reconciliation, whichever comes first: stripe-intents.test.ts and its property test.

describe('the reconciliation worker', () => {
  it('runs on its schedule in the server: a processing charge is settled without anyone asking', async () => {
    const processor = createProcessor('stripe', 'sandbox', {
      STRIPE_SECRET_KEY: emu.secretKey,
      REMIT_STRIPE_API_URL: emu.url,
      STRIPE_PUBLISHABLE_KEY: emu.publishableKey,
    });
    const w = await startTestServer({ now: noonClock(), processor, workers: { reconcile: { pollMs: 100 } } });
    try {
      const wm = await newMerchant(w);
      const customer = await stripeCardCustomer(w, wm, emu);
      emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
      const res = await merchantPost(w, wm, `/customers/charge/${customer}`, { amount: '4.44', order_id: 'worker' });
      expect(res.status).toBe(202);
      const id = res.body.transaction_id;
      await eventually(async () => (await txnRow(w, id)).status === 'completed');
      expect(
        (await eventsOf(w, wm.merchant_id, 'payment.success')).filter((e) => e.transaction_id === id),
      ).toHaveLength(1);
    } finally {
      await w.close();
    }
  });
});
