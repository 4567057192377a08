import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDbKind, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { charge, eventsOf, linkedRows, newCustomer, noonClock, txnRow } from '../testing/payments.js';

/** Races on one transaction row, through HTTP, on PGlite and (REMIT_TEST_DB=postgres) on Postgres. */

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

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe(`concurrency (${testDbKind})`, () => {
  it('50 concurrent refunds of 1.00 on 10.00: exactly 10 succeed, the refunds sum to 10.00', async () => {
    const id = await charge(s, m, card, '10.00');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post('/order/sales-return', { transaction_id: id, amount: '1.00' })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(10);
    // Once the balance is gone the transaction is fully refunded: the spec's message for that case.
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Refund already done. No refund allowed.');
    }
    const recs = await linkedRows(s, id);
    expect(recs).toHaveLength(10);
    expect(sum(recs.map((r) => r.amount))).toBe(1000);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 5, refunded: 1000 });
    expect(
      (await eventsOf(s, m.merchant_id, 'payment.refund')).filter((e) => e.parent_transaction_id === id),
    ).toHaveLength(10);
  });

  it('50 concurrent refunds of 1.00 on 10.50: exactly 10 succeed, the rest get the remaining-amount message', async () => {
    const id = await charge(s, m, card, '10.50');
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post('/order/sales-return', { transaction_id: id, amount: '1.00' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('The amount should not be greater than the remaining amount.');
    }
    expect(sum((await linkedRows(s, id)).map((r) => r.amount))).toBe(1000);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, refunded: 1000 });
  });

  it('concurrent preauth updates with the same last_authorized_amount: exactly one wins', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true, order_id: 'race' });
    const amounts = Array.from({ length: 20 }, (_, i) => `${11 + i}.00`);
    const results = await Promise.all(
      amounts.map((a) =>
        post('/preauth/update', {
          transaction_id: id,
          last_authorized_amount: '10.00',
          new_authorized_amount: a,
          order_id: 'race',
        }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Amount mismatch');
    }
    const won = winners[0]!.body.data.Authorized as string;
    expect(await txnRow(s, id)).toMatchObject({ authorized: Math.round(Number(won) * 100), is_status: 1 });
    const evs = (await eventsOf(s, m.merchant_id, 'preauth.increment')).filter((e) => e.transaction_id === id);
    expect(evs).toHaveLength(1);
    expect(evs[0].authorized_amount).toBe(Number(won));
  });

  it('captures, voids and an update racing on one preauthorization: one capture or void wins, at the amount held last', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await charge(s, m, card, '10.00', { preAuth: true, order_id: 'race-pa' });
      const update = post('/preauth/update', {
        transaction_id: id,
        last_authorized_amount: '10.00',
        new_authorized_amount: '12.00',
        order_id: 'race-pa',
      });
      const ends = Array.from({ length: 10 }, (_, i) =>
        post(i % 2 ? '/preauth/void' : '/preauth/capture', { transaction_id: id }),
      );
      const [updated, ...results] = await Promise.all([update, ...ends]);
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      const held = updated!.status === 200 ? 1200 : 1000;
      const orig = await txnRow(s, id);
      const recs = await linkedRows(s, id);
      const charged = (await eventsOf(s, m.merchant_id, 'preauth.charge')).filter((e) => e.transaction_id === id);
      const voided = (await eventsOf(s, m.merchant_id, 'preauth.void')).filter((e) => e.linked_txn_id === id);
      if (orig.is_status === 2) {
        // 2.9% + 0.30 of what was held when the capture took the row.
        const fee = Math.round(held * 0.029) + 30;
        expect(orig).toMatchObject({ amount: held, fee, net: held - fee });
        expect(winners[0]!.body.data).toMatchObject({
          amount: (held / 100).toFixed(2),
          net_amount: (held - fee) / 100,
        });
        expect(charged).toEqual([expect.objectContaining({ amount: held / 100, fee_amount: fee / 100 })]);
        expect(recs).toEqual([]);
        expect(voided).toEqual([]);
      } else {
        expect(orig.is_status).toBe(4);
        expect(recs).toEqual([expect.objectContaining({ type: 'Void', amount: held })]);
        expect(voided).toEqual([expect.objectContaining({ amount: held / 100 })]);
        expect(charged).toEqual([]);
      }
      const code = orig.is_status === 2 ? 'preauth_captured' : 'preauth_voided';
      for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body.code]).toEqual([400, code]);
    }
  });

  it('void against refunds: totals stay consistent whichever wins', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => charge(s, m, card, '10.00')));
    await Promise.all(
      ids.flatMap((id) => [
        ...Array.from({ length: 6 }, () => post('/order/sales-return', { transaction_id: id, amount: '2.00' })),
        post('/order/sales-void', { transaction_id: id }),
      ]),
    );
    for (const id of ids) {
      const orig = await txnRow(s, id);
      const recs = await linkedRows(s, id);
      const refunds = recs.filter((r) => r.type === 'Refund');
      const voids = recs.filter((r) => r.type === 'Void');
      expect(voids.length).toBeLessThanOrEqual(1);
      expect(orig.refunded).toBe(sum(refunds.map((r) => r.amount)));
      // Every cent goes back exactly once: refunds plus the void (if any) never exceed the original.
      expect(sum(recs.map((r) => r.amount))).toBeLessThanOrEqual(1000);
      if (voids.length === 1) {
        expect(orig.is_status).toBe(4);
        expect(voids[0]!.amount).toBe(1000 - orig.refunded);
        expect(orig.net + sum(recs.map((r) => r.net))).toBe(0);
      } else {
        expect(orig).toMatchObject({ is_status: 5, refunded: 1000 });
      }
      const voidEvents = (await eventsOf(s, m.merchant_id, 'payment.void')).filter((e) => e.linked_txn_id === id);
      const refundEvents = (await eventsOf(s, m.merchant_id, 'payment.refund')).filter(
        (e) => e.parent_transaction_id === id,
      );
      expect(voidEvents).toHaveLength(voids.length);
      expect(refundEvents).toHaveLength(refunds.length);
    }
  });
});
