import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { bankAccount, charge, eventsOf, linkedRows, newCustomer, noonClock, txnRow } from '../testing/payments.js';

let s: TestServer;
let m: TestMerchant;
let card: number;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() });
  m = await newMerchant(s);
  card = await newCustomer(s, m);
});
afterAll(() => s.close());

const post = (path: string, body: object, as: TestMerchant = m) =>
  s.http({ method: 'POST', path: `/api/v1${path}`, auth: as.auth, json: { merchant_key: as.merchant_key, ...body } });
const voidTxn = (transaction_id: string) =>
  post('/order/sales-void', { transaction_id, sub_merchant_key: '', amount: '' });
const refund = (transaction_id: string, amount: string) => post('/order/sales-return', { transaction_id, amount });

const RECORD_KEYS = [
  'Status',
  'amount',
  'linked_txn_id',
  'order_createdfrom',
  'sales_id',
  'transaction_id',
  'txn_date',
  'txn_id',
  'type',
];

describe('POST /order/sales-void', () => {
  it('voids a completed, unsettled transaction: void record, voided original, payment.void', async () => {
    const id = await charge(s, m, card, '10.00');
    const res = await voidTxn(id);
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(RECORD_KEYS);
    expect(d).toMatchObject({
      amount: 10,
      linked_txn_id: id,
      Status: 'Success',
      type: 'Void',
      order_createdfrom: 'API',
    });
    expect(d.sales_id).toMatch(/^txn_/);
    expect(d.transaction_id).toBe(d.sales_id);
    expect(d.txn_id).toMatch(/^gw_/);
    expect(d.txn_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    expect(await txnRow(s, id)).toMatchObject({ is_status: 4, status: 'voided' });
    const [rec] = await linkedRows(s, id);
    expect(rec).toMatchObject({ id: d.sales_id, type: 'Void', amount: 1000, net: -941 });

    const [ev] = (await eventsOf(s, m.merchant_id, 'payment.void')).filter((e) => e.linked_txn_id === id);
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
  });

  it('accepts application/x-www-form-urlencoded', async () => {
    const id = await charge(s, m, card, '5.00');
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/order/sales-void',
      auth: m.auth,
      form: { merchant_key: m.merchant_key, transaction_id: id, sub_merchant_key: '', amount: '5.00' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'Void', amount: 5, linked_txn_id: id });
  });

  it('a settled transaction is refused with the settled-void message and stays unchanged', async () => {
    const m2 = await newMerchant(s, { auth: m.auth });
    const c2 = await newCustomer(s, m2);
    const id = await charge(s, m2, c2, '10.00');
    const settle = await s.http({
      method: 'POST',
      path: '/sandbox/settle',
      auth: m2.auth,
      json: { merchant_key: m2.merchant_key },
    });
    expect(settle.status).toBe(200);
    expect(settle.body.data.transaction_ids).toEqual([id]);
    const res = await voidTxn2(m2, id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      message: 'The transaction has been settled, a void is not allowed.',
      code: 'transaction_settled',
    });
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, settled: true });
    expect(await linkedRows(s, id)).toEqual([]);
    expect(await eventsOf(s, m2.merchant_id, 'payment.void')).toEqual([]);
  });

  it('the daily cutoff settles it too (advance the sandbox clock past midnight)', async () => {
    const m2 = await newMerchant(s, { auth: m.auth });
    const c2 = await newCustomer(s, m2);
    const id = await charge(s, m2, c2, '10.00');
    const adv = await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      auth: m2.auth,
      json: { merchant_key: m2.merchant_key, hours: 13 },
    });
    expect(adv.status).toBe(200);
    const res = await voidTxn2(m2, id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The transaction has been settled, a void is not allowed.');
  });

  it('unknown transaction → 404', async () => {
    const res = await voidTxn('txn_doesnotexist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: false, code: 'transaction_not_found' });
  });

  it("another merchant's transaction is not found", async () => {
    const other = await newMerchant(s);
    const oc = await newCustomer(s, other);
    const id = await charge(s, other, oc, '3.00');
    const res = await voidTxn(id);
    expect(res.status).toBe(404);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2 });
  });

  it('a voided transaction cannot be voided again', async () => {
    const id = await charge(s, m, card, '2.00');
    expect((await voidTxn(id)).status).toBe(200);
    const res = await voidTxn(id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'already_voided', message: 'The transaction has already been voided.' });
    expect(await linkedRows(s, id)).toHaveLength(1);
  });

  it('after a partial refund the void takes the remaining amount and nets the balance to zero', async () => {
    const id = await charge(s, m, card, '10.00');
    expect((await refund(id, '3.00')).status).toBe(200);
    const res = await voidTxn(id);
    expect(res.status).toBe(200);
    expect(res.body.data.amount).toBe(7);
    const orig = await txnRow(s, id);
    const recs = await linkedRows(s, id);
    expect(orig.net + recs.reduce((a, r) => a + r.net, 0)).toBe(0);
  });

  it('a pending ACH transaction or an open preauthorization is not voidable here', async () => {
    const bank = await newCustomer(s, m, { bank_account: bankAccount() });
    const ach = await charge(s, m, bank, '10.00');
    const r1 = await voidTxn(ach);
    expect(r1.status).toBe(400);
    expect(r1.body.code).toBe('not_voidable');
    const pre = await charge(s, m, card, '10.00', { preAuth: true });
    const r2 = await voidTxn(pre);
    expect(r2.status).toBe(400);
    expect(r2.body.message).toContain('/preauth/void');
    expect(await txnRow(s, pre)).toMatchObject({ is_status: 1 });
  });

  it('a refund record is not a payment and cannot be voided', async () => {
    const id = await charge(s, m, card, '10.00');
    const r = await refund(id, '1.00');
    const res = await voidTxn(r.body.data.sales_id);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_voidable');
  });

  it('field errors name the field', async () => {
    const res = await post('/order/sales-void', {});
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('transaction_id');
  });
});

const voidTxn2 = (as: TestMerchant, transaction_id: string) => post('/order/sales-void', { transaction_id }, as);

describe('POST /order/sales-return', () => {
  it('a partial refund: Refund record linked to the original, balance kept, payment.refund', async () => {
    const id = await charge(s, m, card, '10.00');
    const res = await refund(id, '3.00');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(RECORD_KEYS);
    expect(d).toMatchObject({
      amount: 3,
      linked_txn_id: id,
      Status: 'Success',
      type: 'Refund',
      order_createdfrom: 'API',
    });
    expect(d.transaction_id).toBe(d.sales_id);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, status: 'completed', refunded: 300 });
    const [rec] = await linkedRows(s, id);
    expect(rec).toMatchObject({ id: d.sales_id, type: 'Refund', amount: 300, net: -300 });
    const [ev] = (await eventsOf(s, m.merchant_id, 'payment.refund')).filter((e) => e.parent_transaction_id === id);
    expect(ev).toEqual({
      merchant_id: m.merchant_id,
      transaction_id: d.sales_id,
      Status: 'Success',
      linked_txn_id: d.sales_id,
      parent_transaction_id: id,
      sales_id: d.sales_id,
      order_createdfrom: 'API',
      amount: 3,
      txn_id: d.txn_id,
      txn_date: d.txn_date,
      type: 'Refund',
    });
  });

  it('repeated refunds up to the full amount make it fully refunded (is_status 5)', async () => {
    const id = await charge(s, m, card, '10.00');
    for (const a of ['4.00', '4.00', '2.00']) expect((await refund(id, a)).status).toBe(200);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 5, status: 'refunded', refunded: 1000 });
    expect(await linkedRows(s, id)).toHaveLength(3);
  });

  it('a fully refunded transaction: "Refund already done. No refund allowed."', async () => {
    const id = await charge(s, m, card, '10.00');
    expect((await refund(id, '10.00')).status).toBe(200);
    const res = await refund(id, '1.00');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      message: 'Refund already done. No refund allowed.',
      code: 'already_refunded',
    });
    expect(await linkedRows(s, id)).toHaveLength(1);
  });

  it('above the original amount: "Amount should not be greater than sales charge amount."', async () => {
    const id = await charge(s, m, card, '10.00');
    const res = await refund(id, '10.01');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Amount should not be greater than sales charge amount.');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, refunded: 0 });
    expect((await eventsOf(s, m.merchant_id, 'payment.refund')).filter((e) => e.parent_transaction_id === id)).toEqual(
      [],
    );
  });

  it('above the remaining balance: "The amount should not be greater than the remaining amount."', async () => {
    const id = await charge(s, m, card, '10.00');
    expect((await refund(id, '6.00')).status).toBe(200);
    const res = await refund(id, '4.01');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The amount should not be greater than the remaining amount.');
    expect(await txnRow(s, id)).toMatchObject({ refunded: 600 });
  });

  it('unknown transaction: "Payment method not found."', async () => {
    const res = await refund('txn_nope', '1.00');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: false, message: 'Payment method not found.' });
  });

  it('not completed (pending ACH, open preauthorization, voided): "Payment method not found."', async () => {
    const bank = await newCustomer(s, m, { bank_account: bankAccount() });
    const ach = await charge(s, m, bank, '10.00');
    const pre = await charge(s, m, card, '10.00', { preAuth: true });
    const voided = await charge(s, m, card, '10.00');
    await voidTxn(voided);
    for (const id of [ach, pre, voided]) {
      const res = await refund(id, '1.00');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Payment method not found.', code: 'not_refundable' });
    }
  });

  it('a full-amount refund of a transaction older than 24 hours is performed as a void (settled or not)', async () => {
    const m2 = await newMerchant(s, { auth: m.auth });
    const c2 = await newCustomer(s, m2);
    const id = await charge(s, m2, c2, '10.00');
    const partial = await charge(s, m2, c2, '10.00');
    await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      auth: m2.auth,
      json: { merchant_key: m2.merchant_key, hours: 25 },
    });
    const res = await post('/order/sales-return', { transaction_id: id, amount: '10.00' }, m2);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'Void', amount: 10, linked_txn_id: id });
    expect(await txnRow(s, id)).toMatchObject({ is_status: 4, status: 'voided', settled: true });
    expect(await eventsOf(s, m2.merchant_id, 'payment.refund')).toEqual([]);
    const [ev] = await eventsOf(s, m2.merchant_id, 'payment.void');
    expect(ev).toMatchObject({ type: 'Void', linked_txn_id: id, amount: 10 });

    // A partial refund of an old transaction stays a refund.
    const r2 = await post('/order/sales-return', { transaction_id: partial, amount: '4.00' }, m2);
    expect(r2.body.data.type).toBe('Refund');
  });

  it('a full-amount refund within 24 hours is a refund', async () => {
    const id = await charge(s, m, card, '10.00');
    const res = await refund(id, '10.00');
    expect(res.body.data.type).toBe('Refund');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 5 });
  });

  it('amount must be a positive amount', async () => {
    const id = await charge(s, m, card, '10.00');
    for (const amount of ['0', '-1', '1.234', 'abc']) {
      const res = await refund(id, amount);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('amount');
    }
  });
});
