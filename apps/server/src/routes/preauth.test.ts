import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { charge, eventsOf, linkedRows, newCustomer, noonClock, txnRow } from '../testing/payments.js';

let s: TestServer;
let m: TestMerchant;
let card: number;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() });
  m = await newMerchant(s);
  card = await newCustomer(s, m);
});
afterAll(() => s.close());

const post = (path: string, body: object) =>
  s.http({ method: 'POST', path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...body } });
const update = (transaction_id: string, last: string, next: string) =>
  post('/preauth/update', {
    transaction_id,
    last_authorized_amount: last,
    new_authorized_amount: next,
    order_id: 'order-1',
  });
const preauth = (amount = '10.00') => charge(s, m, card, amount, { preAuth: true, order_id: 'order-1' });

describe('POST /preauth/update', () => {
  it('an increase: new authorized amount, update data, preauth.increment', async () => {
    const id = await preauth();
    const res = await update(id, '10.00', '15.50');
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([
      'Account',
      'AuthCode',
      'Authorized',
      'Brand',
      'Status',
      'orderid',
      'transaction_id',
    ]);
    expect(d).toMatchObject({
      Status: 'Approved',
      Account: '4242',
      Brand: 'Visa',
      Authorized: '15.50',
      transaction_id: id,
      orderid: 'order-1',
    });
    expect(typeof d.AuthCode).toBe('string');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 1, authorized: 1550, amount: 1550 });
    const evs = (await eventsOf(s, m.merchant_id, 'preauth.increment')).filter((e) => e.transaction_id === id);
    expect(evs).toEqual([
      {
        merchant_id: m.merchant_id,
        transaction_id: id,
        order_id: 'order-1',
        last_authorized_amount: 10,
        authorized_amount: 15.5,
      },
    ]);
  });

  it('a decrease: preauth.decrement', async () => {
    const id = await preauth();
    const res = await update(id, '10.00', '4.25');
    expect(res.status).toBe(200);
    expect(res.body.data.Authorized).toBe('4.25');
    expect(await txnRow(s, id)).toMatchObject({ authorized: 425 });
    const evs = (await eventsOf(s, m.merchant_id, 'preauth.decrement')).filter((e) => e.transaction_id === id);
    expect(evs).toEqual([
      {
        merchant_id: m.merchant_id,
        transaction_id: id,
        order_id: 'order-1',
        last_authorized_amount: 10,
        authorized_amount: 4.25,
      },
    ]);
  });

  it('last_authorized_amount differing from the record: "Amount mismatch", unchanged', async () => {
    const id = await preauth();
    expect((await update(id, '10.00', '12.00')).status).toBe(200);
    const res = await update(id, '10.00', '14.00');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, message: 'Amount mismatch', code: 'amount_mismatch' });
    expect(await txnRow(s, id)).toMatchObject({ authorized: 1200 });
    expect((await eventsOf(s, m.merchant_id, 'preauth.increment')).filter((e) => e.transaction_id === id)).toHaveLength(
      1,
    );
  });

  it('equal amounts are refused', async () => {
    const id = await preauth();
    const res = await update(id, '10.00', '10.00');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('amount_unchanged');
  });

  it('only the original preauthorization ID: a void record or a sale is refused', async () => {
    const sale = await charge(s, m, card, '10.00');
    const r1 = await update(sale, '10.00', '11.00');
    expect(r1.status).toBe(400);
    expect(r1.body.code).toBe('not_original_preauth');
    const id = await preauth();
    const v = await post('/preauth/void', { transaction_id: id });
    const r2 = await update(v.body.data.sales_id, '10.00', '11.00');
    expect(r2.status).toBe(400);
    expect(r2.body.code).toBe('not_original_preauth');
    const r3 = await update('txn_unknown', '10.00', '11.00');
    expect(r3.status).toBe(404);
    expect(r3.body.code).toBe('preauth_not_found');
  });

  it('a captured or voided preauthorization cannot be updated or captured again', async () => {
    const captured = await preauth();
    expect((await post('/preauth/capture', { transaction_id: captured })).status).toBe(200);
    const r1 = await update(captured, '10.00', '11.00');
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({
      code: 'preauth_captured',
      message: 'The preauthorization has already been captured; it can no longer be updated.',
    });
    const r2 = await post('/preauth/capture', { transaction_id: captured });
    expect(r2.status).toBe(400);
    expect(r2.body.code).toBe('preauth_captured');

    const voided = await preauth();
    expect((await post('/preauth/void', { transaction_id: voided })).status).toBe(200);
    const r3 = await update(voided, '10.00', '11.00');
    expect(r3.status).toBe(400);
    expect(r3.body).toMatchObject({
      code: 'preauth_voided',
      message: 'The preauthorization has been voided; it can no longer be updated.',
    });
    const r4 = await post('/preauth/capture', { transaction_id: voided });
    expect(r4.body.message).toBe('The preauthorization has been voided; it can no longer be captured.');
    const r5 = await post('/preauth/void', { transaction_id: voided });
    expect(r5.status).toBe(400);
  });
});

describe('POST /preauth/capture', () => {
  it('captures the authorized amount: completed, fee and net, preauth.charge and payment.success', async () => {
    const id = await preauth('10.00');
    await update(id, '10.00', '20.00');
    const res = await post('/preauth/capture', { transaction_id: id });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([
      'Account',
      'AuthCode',
      'Authorized',
      'Brand',
      'Status',
      'amount',
      'net_amount',
      'orderid',
      'transaction_id',
    ]);
    // 20.00 × 2.9% + 0.30 = 0.88
    expect(d).toMatchObject({
      Status: 'Approved',
      Account: '4242',
      Brand: 'Visa',
      amount: '20.00',
      Authorized: 20,
      orderid: 'order-1',
      transaction_id: id,
      net_amount: 19.12,
    });
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, status: 'completed', amount: 2000, fee: 88, net: 1912 });
    const [charged] = (await eventsOf(s, m.merchant_id, 'preauth.charge')).filter((e) => e.transaction_id === id);
    expect(charged).toEqual({
      merchant_id: m.merchant_id,
      transaction_id: id,
      order_id: 'order-1',
      amount: 20,
      net_amount: 19.12,
      fee_amount: 0.88,
    });
    const [success] = (await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.transaction_id === id);
    expect(success).toMatchObject({
      transaction_id: id,
      merchant_id: m.merchant_id,
      amount: 20,
      net_amount: 19.12,
      fee_amount: 0.88,
      order_id: 'order-1',
      last_four: '4242',
      brand: 'Visa',
    });
  });

  it('a captured preauthorization is refundable and voidable like a sale', async () => {
    const id = await preauth('10.00');
    await post('/preauth/capture', { transaction_id: id });
    const r = await post('/order/sales-return', { transaction_id: id, amount: '2.00' });
    expect(r.status).toBe(200);
    const v = await post('/order/sales-void', { transaction_id: id });
    expect(v.status).toBe(200);
    expect(v.body.data.amount).toBe(8);
  });

  it('only the original preauthorization ID', async () => {
    const sale = await charge(s, m, card, '10.00');
    const res = await post('/preauth/capture', { transaction_id: sale });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_original_preauth');
    expect(await txnRow(s, sale)).toMatchObject({ is_status: 2, type: 'Sale' });
  });
});

describe('POST /preauth/void', () => {
  it('releases the hold: void record (cancelling the shown net), voided preauthorization, preauth.void', async () => {
    const id = await preauth('10.00');
    const res = await post('/preauth/void', { transaction_id: id });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ type: 'Void', amount: 10, linked_txn_id: id, Status: 'Success' });
    expect(await txnRow(s, id)).toMatchObject({ is_status: 4, status: 'voided' });
    expect(await linkedRows(s, id)).toEqual([expect.objectContaining({ type: 'Void', amount: 1000, net: -941 })]);
    const [ev] = (await eventsOf(s, m.merchant_id, 'preauth.void')).filter((e) => e.linked_txn_id === id);
    expect(ev).toEqual({
      merchant_id: m.merchant_id,
      transaction_id: d.sales_id,
      Status: 'Success',
      linked_txn_id: id,
      sales_id: d.sales_id,
      order_createdfrom: 'API',
      amount: 10,
      txn_id: d.txn_id,
      txn_date: d.txn_date,
      type: 'Void',
    });
    expect((await eventsOf(s, m.merchant_id, 'payment.void')).filter((e) => e.linked_txn_id === id)).toEqual([]);
  });
});
