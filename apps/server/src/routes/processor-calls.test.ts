import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { charge, gatewayRefOf, linkedRows, merchantPost, newCustomer, noonClock, txnRow } from '../testing/payments.js';
import { recordingProcessor } from '../testing/recording-processor.js';

/** Every money operation of the API reaches the processor, inside the write it belongs to. */

const rec = recordingProcessor();
let s: TestServer;
let m: TestMerchant;
let card: number;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), processor: rec.processor });
  m = await newMerchant(s);
  card = await newCustomer(s, m);
});
afterAll(() => s.close());
beforeEach(() => {
  rec.calls.length = 0;
});

const post = (path: string, body: object, key?: string) => merchantPost(s, m, path, body, key);

describe('the processor is called by every money operation', () => {
  it('a sale authorizes and captures at once; a refund and a void of the rest name its reference', async () => {
    const id = await charge(s, m, card, '10.00');
    expect(rec.calls).toEqual([expect.objectContaining({ call: 'authorize', amountCents: 1000 })]);
    const ref = rec.calls[0]!.gatewayRef;
    rec.calls.length = 0;
    expect((await post('/order/sales-return', { transaction_id: id, amount: '3.00' })).status).toBe(200);
    expect((await post('/order/sales-void', { transaction_id: id })).status).toBe(200);
    expect(rec.calls.map(({ call, gatewayRef, amountCents }) => ({ call, gatewayRef, amountCents }))).toEqual([
      { call: 'refund', gatewayRef: ref, amountCents: 300 },
      { call: 'refund', gatewayRef: ref, amountCents: 700 },
    ]);
  });

  it('a preauthorization: an increase asks the processor, a decrease does not; capture takes the lower amount', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true });
    const ref = rec.calls[0]!.gatewayRef;
    expect(rec.calls[0]).toMatchObject({ call: 'authorize', amountCents: 1000 });
    rec.calls.length = 0;
    const up = await post('/preauth/update', {
      transaction_id: id,
      last_authorized_amount: '10.00',
      new_authorized_amount: '15.00',
      order_id: 'o',
    });
    expect(up.status).toBe(200);
    const down = await post('/preauth/update', {
      transaction_id: id,
      last_authorized_amount: '15.00',
      new_authorized_amount: '12.00',
      order_id: 'o',
    });
    expect(down.status).toBe(200);
    expect((await post('/preauth/capture', { transaction_id: id })).status).toBe(200);
    expect(rec.calls.map(({ call, gatewayRef, amountCents }) => ({ call, gatewayRef, amountCents }))).toEqual([
      { call: 'increment', gatewayRef: ref, amountCents: 1500 },
      { call: 'capture', gatewayRef: ref, amountCents: 1200 },
    ]);
  });

  it('a preauthorization void cancels it at the processor', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true });
    const ref = rec.calls[0]!.gatewayRef;
    rec.calls.length = 0;
    expect((await post('/preauth/void', { transaction_id: id })).status).toBe(200);
    expect(rec.calls).toEqual([expect.objectContaining({ call: 'cancel', gatewayRef: ref })]);
    expect(await gatewayRefOf(s, id)).toBe(ref);
  });

  it('a refusal asks nothing of the processor', async () => {
    const id = await charge(s, m, card, '10.00');
    rec.calls.length = 0;
    const res = await post('/order/sales-return', { transaction_id: id, amount: '11.00' });
    expect(res.status).toBe(400);
    expect(rec.calls).toEqual([]);
  });
});

describe('a processor failure after the write rolls the write back', () => {
  it('a refund the processor failed leaves no record and no event; the next one goes through', async () => {
    const id = await charge(s, m, card, '10.00');
    const before = await tableCounts(s.core);
    rec.failNext('refund');
    const res = await post('/order/sales-return', { transaction_id: id, amount: '2.00' });
    expect(res.status).toBe(500);
    expect(await tableCounts(s.core)).toEqual(before);
    expect(await txnRow(s, id)).toMatchObject({ refunded: 0, status: 'completed' });
    expect((await post('/order/sales-return', { transaction_id: id, amount: '2.00' })).status).toBe(200);
    expect(await linkedRows(s, id)).toHaveLength(1);
  });
});

describe('exactly once with a remote processor: the processor idempotency key', () => {
  it('a keyed capture retried after a crash that followed the processor call sends the same key, and captures once', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true });
    rec.calls.length = 0;
    rec.failNext('capture');
    const first = await post('/preauth/capture', { transaction_id: id }, 'capture-1');
    expect(first.status).toBe(500);
    expect(await txnRow(s, id)).toMatchObject({ status: 'authorized' });
    const retry = await post('/preauth/capture', { transaction_id: id }, 'capture-1');
    expect(retry.status).toBe(200);
    expect(rec.calls.map((c) => c.call)).toEqual(['capture', 'capture']);
    expect(rec.calls[0]!.idempotencyKey).toBe(rec.calls[1]!.idempotencyKey);
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed', amount: 1000 });
  });

  it('a keyed charge retried after a failure sends the same key both times; an unkeyed retry is a new operation', async () => {
    rec.failNext('authorize');
    const body = { amount: '5.00', order_id: 'retry-1' };
    expect((await post(`/customers/charge/${card}`, body, 'charge-1')).status).toBe(500);
    expect((await post(`/customers/charge/${card}`, body, 'charge-1')).status).toBe(200);
    expect((await post(`/customers/charge/${card}`, body)).status).toBe(200);
    expect((await post(`/customers/charge/${card}`, body)).status).toBe(200);
    const keys = rec.calls.map((c) => c.idempotencyKey);
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(3);
  });

  it('the same Idempotency-Key of another client is another operation', async () => {
    const other = await newMerchant(s);
    const otherCard = await newCustomer(s, other);
    rec.calls.length = 0;
    const body = { amount: '5.00', order_id: 'same-key' };
    expect((await post(`/customers/charge/${card}`, body, 'shared-key')).status).toBe(200);
    const res = await s.http({
      method: 'POST',
      path: `/api/v1/customers/charge/${otherCard}`,
      auth: other.auth,
      json: { merchant_key: other.merchant_key, ...body },
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(res.status).toBe(200);
    expect(rec.calls[0]!.idempotencyKey).not.toBe(rec.calls[1]!.idempotencyKey);
  });
});

describe('POST /stripe/webhooks without the Stripe connector', () => {
  it('is not there: 404, nothing read', async () => {
    const res = await fetch(`${s.url}/stripe/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ result: false, code: 'route_not_found' });
  });
});
