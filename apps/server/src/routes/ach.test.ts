import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { bankAccount, charge, eventsOf, linkedRows, newCustomer, noonClock, txnRow } from '../testing/payments.js';

let s: TestServer;
let m: TestMerchant;
let bank: number;
let returnedBank: number;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() });
  m = await newMerchant(s);
  bank = await newCustomer(s, m, { bank_account: bankAccount() });
  returnedBank = await newCustomer(s, m, { bank_account: bankAccount('000123450000') });
});
afterAll(() => s.close());

const updateAch = (transaction_id: string, new_status: unknown) =>
  s.http({
    method: 'POST',
    path: '/api/v1/update-ach',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, transaction_id, new_status },
  });

describe('POST /update-ach (sandbox)', () => {
  it('approved: completed and settled, ach.update Approved and payment.success', async () => {
    const id = await charge(s, m, bank, '100.00');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 0, payment_method: 'ach', settled: false });
    const res = await updateAch(id, 'approved');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, message: 'ACH transaction approved.' });
    // ACH fee 1.0% of 100.00 = 1.00
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, status: 'completed', settled: true, net: 9900 });
    const evs = (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);
    expect(evs).toEqual([{ merchant_id: m.merchant_id, status: 'Approved', tran_id: id, message: 'Approved' }]);
    const [success] = (await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.transaction_id === id);
    expect(success).toMatchObject({ transaction_id: id, amount: 100, net_amount: 99, fee_amount: 1, brand: 'ACH' });
  });

  it('declined: returned, a reversal record, ach.update Declined with return_transaction_id', async () => {
    const id = await charge(s, m, bank, '50.00');
    const res = await updateAch(id, 'declined');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, message: 'ACH transaction declined: Insufficient Funds.' });
    expect(await txnRow(s, id)).toMatchObject({ is_status: 6, status: 'returned' });
    const [rev] = await linkedRows(s, id);
    expect(rev).toMatchObject({ type: 'Return', amount: 5000, net: -4950, linked_txn_id: id });
    const evs = (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);
    expect(evs).toEqual([
      {
        merchant_id: m.merchant_id,
        status: 'Declined',
        tran_id: id,
        message: 'Insufficient Funds',
        return_transaction_id: rev!.id,
      },
    ]);
    expect((await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.transaction_id === id)).toEqual([]);
  });

  it('approved on an account ending 0000: the simulated bank returns it (R01 Insufficient Funds)', async () => {
    const id = await charge(s, m, returnedBank, '20.00');
    const res = await updateAch(id, 'approved');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('ACH transaction declined: Insufficient Funds.');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 6 });
    const [ev] = (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);
    expect(ev).toMatchObject({ status: 'Declined', message: 'Insufficient Funds' });
  });

  it.each([['pending'], ['APPROVED'], [''], [1], [null]])('new_status %j → 400', async (status) => {
    const id = await charge(s, m, bank, '5.00');
    const res = await updateAch(id, status);
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(false);
    expect(res.body.errors[0].path).toBe('new_status');
    expect(await txnRow(s, id)).toMatchObject({ is_status: 0 });
  });

  it('an ACH transaction already resolved → 400, nothing written', async () => {
    const id = await charge(s, m, bank, '5.00');
    await updateAch(id, 'approved');
    const res = await updateAch(id, 'declined');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('ach_already_resolved');
    expect(await linkedRows(s, id)).toEqual([]);
    expect((await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id)).toHaveLength(1);
  });

  it('a card transaction is not an ACH transaction; an unknown one is not found', async () => {
    const card = await newCustomer(s, m);
    const id = await charge(s, m, card, '5.00');
    const res = await updateAch(id, 'approved');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_ach');
    const r2 = await updateAch('txn_unknown', 'approved');
    expect(r2.status).toBe(404);
  });

  it('an approved ACH payment is settled: a void is refused, a refund works', async () => {
    const id = await charge(s, m, bank, '30.00');
    await updateAch(id, 'approved');
    const v = await s.http({
      method: 'POST',
      path: '/api/v1/order/sales-void',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: id },
    });
    expect(v.body.message).toBe('The transaction has been settled, a void is not allowed.');
    const r = await s.http({
      method: 'POST',
      path: '/api/v1/order/sales-return',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: id, amount: '10.00' },
    });
    expect(r.status).toBe(200);
  });
});

describe('production', () => {
  it('update-ach and the sandbox endpoints answer 403 sandbox_only', async () => {
    const p = await startTestServer({ env: 'production' });
    try {
      // Production has no portal: make a client through the core.
      const { createCredentials } = await import('@remit/core');
      const creds = await createCredentials(p.core.ctx);
      const auth: [string, string] = [creds.client_id, creds.secret_key];
      for (const [path, json] of [
        ['/api/v1/update-ach', { merchant_key: 'mk_live_x', transaction_id: 'txn_x', new_status: 'approved' }],
        ['/sandbox/advance-clock', { merchant_key: 'mk_live_x', hours: 1 }],
        ['/sandbox/settle', { merchant_key: 'mk_live_x' }],
      ] as const) {
        const res = await p.http({ method: 'POST', path, auth, json });
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject({ result: false, code: 'sandbox_only' });
      }
    } finally {
      await p.close();
    }
  });
});
