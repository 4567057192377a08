import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyWebhook, type WebhookEvent } from '@remit/sdk';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import { startTestServer, type TestServer } from './testing/harness.js';
import { bankAccount, charge, newCustomer, noonClock } from './testing/payments.js';

/**
 * Every event the API's operations fire reaches a real receiver on loopback, signed, with the
 * spec's field names and JSON types.
 */
const N = 'number';
const S = 'string';
const voidRecord = {
  merchant_id: S,
  transaction_id: S,
  Status: S,
  linked_txn_id: S,
  sales_id: S,
  order_createdfrom: S,
  amount: N,
  txn_id: S,
  txn_date: S,
  type: S,
};
const SHAPES: Record<string, Record<string, string>> = {
  'payment.success': {
    transaction_id: S,
    merchant_id: S,
    amount: N,
    net_amount: N,
    fee_amount: N,
    order_id: S,
    last_four: S,
    brand: S,
    link_id: S,
  },
  'merchant.onboarding': { merchant_key: S, merchant_id: S, business_name: S, email: S, public_key: S },
  'merchant.approval': { merchant_id: S, business_name: S, email: S, company_id: S },
  'ach.update': { merchant_id: S, status: S, tran_id: S, message: S },
  'payment.void': voidRecord,
  'payment.refund': { ...voidRecord, parent_transaction_id: S },
  'preauth.increment': {
    merchant_id: S,
    transaction_id: S,
    order_id: S,
    last_authorized_amount: N,
    authorized_amount: N,
  },
  'preauth.decrement': {
    merchant_id: S,
    transaction_id: S,
    order_id: S,
    last_authorized_amount: N,
    authorized_amount: N,
  },
  'preauth.charge': { merchant_id: S, transaction_id: S, order_id: S, amount: N, net_amount: N, fee_amount: N },
  'preauth.void': voidRecord,
  // Our extension: the returned ACH debit below (transaction_id is absent only for a Stripe pay page decline).
  'payment.failed': { transaction_id: S, merchant_id: S, order_id: S, amount: N, code: S, message: S, method: S },
};

let s: TestServer;
let rx: Receiver;
let m: TestMerchant;
let secret: string;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), workers: { webhooks: { pollMs: 10 } } });
  rx = await startReceiver();
  const auth = await s.credentials();
  secret = (
    await s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url: rx.url } })
  ).body.signing_secret;
  m = await newMerchant(s, { auth });
});
afterAll(async () => {
  await s.close();
  await rx.close();
});

const post = (path: string, body: object) =>
  s.http({ method: 'POST', path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...body } });

it('each operation’s event arrives signed, as {event_type, data} with the spec’s fields and types', async () => {
  const card = await newCustomer(s, m);
  const sale = await charge(s, m, card, '10.00');
  expect((await post('/order/sales-void', { transaction_id: sale })).status).toBe(200);
  const sale2 = await charge(s, m, card, '20.00');
  expect((await post('/order/sales-return', { transaction_id: sale2, amount: '5.00' })).status).toBe(200);
  const pa = await charge(s, m, card, '10.00', { preAuth: true, order_id: 'pa-1' });
  expect(
    (
      await post('/preauth/update', {
        transaction_id: pa,
        last_authorized_amount: '10.00',
        new_authorized_amount: '12.00',
        order_id: 'pa-1',
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await post('/preauth/update', {
        transaction_id: pa,
        last_authorized_amount: '12.00',
        new_authorized_amount: '11.00',
        order_id: 'pa-1',
      })
    ).status,
  ).toBe(200);
  expect((await post('/preauth/capture', { transaction_id: pa })).status).toBe(200);
  const pa2 = await charge(s, m, card, '7.00', { preAuth: true, order_id: 'pa-2' });
  expect((await post('/preauth/void', { transaction_id: pa2 })).status).toBe(200);
  const bank = await newCustomer(s, m, { bank_account: bankAccount() });
  const achOk = await charge(s, m, bank, '30.00');
  expect((await post('/update-ach', { transaction_id: achOk, new_status: 'approved' })).status).toBe(200);
  const bad = await newCustomer(s, m, { bank_account: bankAccount('000111110000') });
  const achBad = await charge(s, m, bad, '40.00');
  expect((await post('/update-ach', { transaction_id: achBad, new_status: 'declined' })).status).toBe(200);

  const wanted = Object.keys(SHAPES);
  const received = () => rx.received.map((r) => JSON.parse(r.body) as WebhookEvent);
  await rx.waitFor(
    () =>
      wanted.every((t) => received().some((e) => e.event_type === t)) &&
      received().filter((e) => e.event_type === 'ach.update').length === 2,
    20_000,
  );

  const wh = new Webhook(secret);
  for (const r of rx.received) {
    const e = verifyWebhook(secret, r.headers, r.body);
    expect(wh.verify(r.body, r.headers as Record<string, string>)).toEqual(e);
    expect(Object.keys(e)).toEqual(['event_type', 'data', 'id', 'created_at']);
    expect(r.headers['webhook-id']).toBe(e.id);
    const shape = SHAPES[e.event_type];
    expect(shape, e.event_type).toBeDefined();
    const optional = e.event_type === 'ach.update' && e.data.status === 'Declined' ? { return_transaction_id: S } : {};
    const types = Object.fromEntries(Object.entries(e.data).map(([k, v]) => [k, typeof v]));
    expect(types, e.event_type).toEqual({ ...shape, ...optional });
    expect('merchant_id' in e.data && e.data.merchant_id).toBe(m.merchant_id);
  }
  const ach = received()
    .filter((e) => e.event_type === 'ach.update')
    .map((e) => e.data);
  expect(ach).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ status: 'Approved', message: 'Approved', tran_id: achOk }),
      expect.objectContaining({
        status: 'Declined',
        message: 'Insufficient Funds',
        tran_id: achBad,
        return_transaction_id: expect.stringMatching(/^txn_/),
      }),
    ]),
  );
  expect(received().find((e) => e.event_type === 'payment.void')!.data).toMatchObject({
    linked_txn_id: sale,
    type: 'Void',
    amount: 10,
  });
  expect(received().find((e) => e.event_type === 'payment.refund')!.data).toMatchObject({
    parent_transaction_id: sale2,
    type: 'Refund',
    amount: 5,
  });
});
