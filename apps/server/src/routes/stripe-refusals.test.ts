import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { reconcilePayments, type StripeProcessor } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { verifyWebhook } from '@remit/sdk';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { logCapture, secretsIn } from '../testing/log-scan.js';
import { gatewayRefOf, merchantPost, noonClock, rows, txnRow } from '../testing/payments.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';
import { stripeCardCustomer } from '../testing/stripe-cards.js';

/**
 * A refund, void or capture Remit answered as done while Stripe's answer never came (the deferred
 * call), which Stripe then refuses when reconciliation sends it again: the record says it failed,
 * the original is as before, the client gets a signed event, the metric counts it, the log has one
 * warn line. And Stripe unreachable: 502 and nothing recorded. The real server over HTTP, the
 * official SDK against the Stripe emulator.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
let rx: Receiver;
let secret: string;
let visa: number;
const log = logCapture();
beforeAll(async () => {
  emu = await startStripeEmulator();
  s = await startTestServer({
    now: noonClock(),
    processor: emulatedStripe(emu),
    metrics: {},
    logStream: log.stream,
    workers: { webhooks: { pollMs: 10 }, reconcile: false },
  });
  rx = await startReceiver();
  const auth = await s.credentials();
  const hooked = await s.http({
    method: 'POST',
    path: '/api/v1/client/update-webhooks-url',
    auth,
    json: { webhook_url: rx.url },
  });
  secret = hooked.body.signing_secret;
  m = await newMerchant(s, { auth });
  visa = await stripeCardCustomer(s, m, emu);
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
  await emu?.close();
});

/** Stripe's Dashboard (or anyone with the platform's key): what happens at Stripe beside Remit. */
const dashboard = () => (s.core.ctx.processor as StripeProcessor).stripe;
const sale = async (amount: string, preAuth = false) => {
  const res = await merchantPost(s, m, `/customers/charge/${visa}`, { amount, order_id: `o-${amount}`, preAuth });
  expect(res.status).toBe(200);
  const id = res.body.transaction_id as string;
  return { id, pid: await gatewayRefOf(s, id) };
};
/** Signed deliveries of `type`, verified with the client's secret. */
const delivered = async (type: string, n = 1) => {
  await rx.waitFor((all) => all.filter((r) => JSON.parse(r.body).event_type === type).length >= n, 15_000);
  return rx.received
    .filter((r) => JSON.parse(r.body).event_type === type)
    .map((r) => verifyWebhook(secret, r.headers as Record<string, string>, r.body));
};
const refusalWarnings = () =>
  log.entries().filter((e) => e.level === 40 && /^the processor refused a /.test(e.msg ?? ''));
const callsOf = (pid: string) =>
  rows<{ kind: string; status: string; reference: string | null; last_error: string | null }>(
    s,
    sql`select kind, status, reference, last_error from processor_calls where gateway_ref = ${pid}`,
  );
const reconcile = () => reconcilePayments(s.core.ctx, { logger: s.app.log });
const metric = async (operation: string) => {
  const text = (await s.http({ method: 'GET', path: '/metrics' })).text;
  const line = text.split('\n').find((l) => l.startsWith(`remit_processor_refusals_total{operation="${operation}"} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe('a deferred call Stripe refuses at reconciliation', () => {
  it('a refund: the record fails, the sale is refundable again, payment.refund.failed (signed, exact), the metric, one warn line', async () => {
    const { id, pid } = await sale('20.00');
    expect(await metric('refund')).toBe(0);
    // Stripe's answer never comes (5xx, three tries): Remit answers as the spec says and keeps the call.
    emu.failRequests(/^\/v1\/refunds$/, 3, 503);
    const res = await merchantPost(s, m, '/order/sales-return', { transaction_id: id, amount: '5.00' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Refund processed successfully.');
    const refundId = res.body.data.transaction_id as string;
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', refunded: 500 });
    expect(await callsOf(pid)).toEqual([
      { kind: 'refund', status: 'unconfirmed', reference: refundId, last_error: null },
    ]);

    // Meanwhile the whole payment is refunded at Stripe: the refund sent again is refused.
    await dashboard().refunds.create({ payment_intent: pid, amount: 2000, reverse_transfer: true });
    const report = await reconcile();
    expect(report.calls).toEqual({ confirmed: 0, refused: 1, left: 0 });
    const reason =
      'Stripe: StripeInvalidRequestError amount_too_large: Refund amount ($5.00) is greater than unrefunded amount on charge ($0.00)';
    expect(report.refusals).toEqual([
      {
        call_id: expect.stringMatching(/^pcall_/),
        operation: 'refund',
        merchant_id: m.merchant_id,
        transaction_id: refundId,
        original_transaction_id: id,
        gateway_ref: pid,
        amount: 5,
        cause: reason,
        created_at: expect.any(String),
        refused_at: expect.any(String),
      },
    ]);

    // What the merchant reads: the refund failed, the sale has nothing refunded.
    const refund = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions/${refundId}?merchant_key=${m.merchant_key}`,
      auth: m.auth,
    });
    expect(refund.body.data[0]).toMatchObject({
      transaction_id: refundId,
      type: 'Refund',
      status: 'failed',
      is_status: 8,
    });
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', is_status: 2, refunded: 0 });
    expect(await callsOf(pid)).toEqual([
      { kind: 'refund', status: 'refused', reference: refundId, last_error: reason },
    ]);

    const [event] = await delivered('payment.refund.failed');
    expect(event).toEqual({
      event_type: 'payment.refund.failed',
      data: {
        merchant_id: m.merchant_id,
        transaction_id: refundId,
        linked_txn_id: refundId,
        parent_transaction_id: id,
        sales_id: refundId,
        order_createdfrom: res.body.data.order_createdfrom,
        amount: 5,
        txn_id: res.body.data.txn_id,
        txn_date: res.body.data.txn_date,
        type: 'Refund',
        Status: 'Error',
        reason,
      },
      id: expect.stringMatching(/^evt_/),
      created_at: expect.any(String),
    });
    expect(await metric('refund')).toBe(1);
    const warned = refusalWarnings();
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      provider: 'stripe',
      operation: 'refund',
      transaction_id: refundId,
      original_transaction_id: id,
      cause: reason,
    });
    expect(secretsIn(log.text(), [emu.secretKey])).toEqual([]);

    // Found once: another pass changes nothing, sends nothing, logs nothing.
    expect((await reconcile()).calls).toEqual({ confirmed: 0, refused: 0, left: 0 });
    expect(refusalWarnings()).toHaveLength(1);
    expect(await delivered('payment.refund.failed')).toHaveLength(1);
  });

  it('a void of a sale: the Void record fails, the sale is completed again, payment.void.failed', async () => {
    const { id, pid } = await sale('30.00');
    emu.failRequests(/^\/v1\/refunds$/, 3, 503);
    const res = await merchantPost(s, m, '/order/sales-void', { transaction_id: id });
    expect(res.status).toBe(200);
    const voidId = res.body.data.transaction_id as string;
    expect(await txnRow(s, id)).toMatchObject({ status: 'voided' });
    await dashboard().refunds.create({ payment_intent: pid, reverse_transfer: true });
    expect((await reconcile()).calls).toMatchObject({ refused: 1 });
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', is_status: 2 });
    expect(await txnRow(s, voidId)).toMatchObject({ type: 'Void', status: 'failed', is_status: 8 });
    const [event] = await delivered('payment.void.failed');
    expect(event!.data).toEqual({
      merchant_id: m.merchant_id,
      transaction_id: voidId,
      linked_txn_id: id,
      sales_id: voidId,
      order_createdfrom: res.body.data.order_createdfrom,
      amount: 30,
      txn_id: res.body.data.txn_id,
      txn_date: res.body.data.txn_date,
      type: 'Void',
      Status: 'Error',
      reason: expect.stringContaining('Stripe: StripeInvalidRequestError amount_too_large:'),
    });
    expect(await metric('void')).toBe(1);
  });

  it('a capture: the preauthorization fails (nothing taken), preauth.charge.failed', async () => {
    const { id, pid } = await sale('11.00', true);
    emu.failRequests(/\/capture$/, 3, 503);
    expect((await merchantPost(s, m, '/preauth/capture', { transaction_id: id })).status).toBe(200);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed' });
    // The hold ran out at Stripe (or was released there) before the capture was sent again.
    await dashboard().paymentIntents.cancel(pid);
    expect((await reconcile()).calls).toMatchObject({ refused: 1 });
    expect(await txnRow(s, id)).toMatchObject({ type: 'PreAuth', status: 'failed', is_status: 8 });
    const [event] = await delivered('preauth.charge.failed');
    expect(event!.data).toEqual({
      merchant_id: m.merchant_id,
      transaction_id: id,
      order_id: 'o-11.00',
      amount: 11,
      Status: 'Error',
      reason:
        'Stripe: StripeInvalidRequestError payment_intent_unexpected_state: This PaymentIntent could not be captured because it has a status of canceled.',
    });
    expect(await metric('capture')).toBe(1);
  });

  it('a void of a preauthorization: the Void record fails, the hold is authorized again', async () => {
    const { id, pid } = await sale('12.00', true);
    emu.failRequests(/\/cancel$/, 3, 503);
    const res = await merchantPost(s, m, '/preauth/void', { transaction_id: id });
    expect(res.status).toBe(200);
    const voidId = res.body.data.transaction_id as string;
    await dashboard().paymentIntents.capture(pid);
    expect((await reconcile()).calls).toMatchObject({ refused: 1 });
    expect(await txnRow(s, id)).toMatchObject({ status: 'authorized', is_status: 1 });
    expect(await txnRow(s, voidId)).toMatchObject({ status: 'failed' });
    const events = await delivered('payment.void.failed', 2);
    expect(events.map((e) => (e.data as { transaction_id: string }).transaction_id)).toContain(voidId);
    expect(await metric('void')).toBe(2);
    expect(refusalWarnings().map((w) => w.operation)).toEqual(['refund', 'void', 'capture', 'void']);
  });
});

describe('Stripe unreachable', () => {
  it('a refund answers 502 processor_error, nothing recorded, one warn line; once Stripe is back the same refund goes through once', async () => {
    const { id, pid } = await sale('8.00');
    const count = async () =>
      (
        await rows<{ t: number; e: number; c: number }>(
          s,
          sql`select (select count(*)::int from transactions) as t, (select count(*)::int from events) as e,
              (select count(*)::int from processor_calls) as c`,
        )
      )[0];
    const before = await count();
    await emu.setReachable(false);
    let res;
    try {
      res = await merchantPost(s, m, '/order/sales-return', { transaction_id: id, amount: '3.00' });
    } finally {
      await emu.setReachable(true);
    }
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      result: false,
      code: 'processor_error',
      message:
        'The payment processor could not complete the request; nothing was changed. Retry the request (with an Idempotency-Key header, a retry is never done twice).',
    });
    expect(await count()).toEqual(before);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', refunded: 0 });
    const warned = log.entries().filter((e) => e.level === 40 && e.reqId === res.body.request_id);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({
      provider: 'stripe',
      cause: 'Stripe: StripeConnectionError: An error occurred with our connection to Stripe. (ECONNREFUSED)',
    });

    const again = await merchantPost(s, m, '/order/sales-return', { transaction_id: id, amount: '3.00' });
    expect(again.status).toBe(200);
    expect(emu.refunds.filter((r) => r.payment_intent === pid).map((r) => r.amount)).toEqual([300]);
    expect(await callsOf(pid)).toEqual([]);
  });
});
