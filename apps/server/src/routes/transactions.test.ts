import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, schema } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';

let s: TestServer;
let m: TestMerchant;
let other: TestMerchant;

const LIST = '/api/v1/merchant/transactions';
const LIMIT_RULE = 'must be a whole number from 1 to 100 (default 20)';

/** A row with a controlled created_at: the ordering and date tests need exact times. */
function txn(
  merchantId: string,
  id: string,
  createdAt: string,
  over: Partial<typeof schema.transactions.$inferInsert> = {},
) {
  return {
    id,
    merchantId,
    type: 'Sale',
    paymentMethod: 'card',
    isStatus: 2,
    status: 'completed',
    amountCents: 1000,
    feeCents: 59,
    feeRateE7: 29_000_000,
    netCents: 941,
    orderCreatedfrom: 'API',
    authCode: 'AUTH01',
    cardBrand: 'Visa',
    lastFour: '4242',
    orderId: `order-${id}`,
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
    ...over,
  };
}

const ids = (body: { data: Array<{ transaction_id: string }> }) => body.data.map((t) => t.transaction_id);

beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  other = await newMerchant(s);
  const rows = [];
  // 25 rows over 25 days of March 2026, one per day at noon; ids sort like their days.
  for (let d = 1; d <= 25; d++) {
    const day = String(d).padStart(2, '0');
    rows.push(txn(m.merchant_id, `txn_t${day}`, `2026-03-${day}T12:00:00.000Z`));
  }
  rows.push(txn(m.merchant_id, 'txn_t25b', '2026-03-25T12:00:00.000Z'));
  rows.push(
    txn(m.merchant_id, 'txn_refund', '2026-03-26T00:00:00.000Z', {
      type: 'Refund',
      amountCents: 250,
      netCents: -250,
      feeCents: 0,
      linkedTxnId: 'txn_t01',
      orderId: null,
      authCode: '',
    }),
  );
  rows.push(txn(other.merchant_id, 'txn_foreign', '2026-03-10T12:00:00.000Z'));
  await s.core.ctx.db.insert(schema.transactions).values(rows);
});
afterAll(() => s.close());

describe('GET /merchant/transactions', () => {
  it('lists newest first with the default limit of 20 and the total of all matches (JSON body)', async () => {
    const res = await s.http({ method: 'GET', path: LIST, auth: m.auth, json: { merchant_key: m.merchant_key } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result', 'total']);
    expect(res.body.result).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.total).toBe(27);
    expect(res.body.data).toHaveLength(20);
    expect(ids(res.body).slice(0, 4)).toEqual(['txn_refund', 'txn_t25b', 'txn_t25', 'txn_t24']);
  });

  it('shapes each item exactly as the spec plus the DESIGN extras', async () => {
    const res = await s.http({
      method: 'GET',
      path: LIST,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, limit: '2' },
    });
    expect(res.body.data).toEqual([
      {
        transaction_id: 'txn_refund',
        amount: '2.50',
        created_date: '2026-03-26T00:00:00.000Z',
        fee_percentage: '2.9000000',
        net_amount: -2.5,
        other_details: { auth_code: '', card_brand: 'Visa', last_four: '4242' },
        status: 'completed',
        is_status: 2,
        type: 'Refund',
        payment_method: 'card',
        settled: true, // completed card rows of March are past every daily cutoff since
        order_id: '',
      },
      {
        transaction_id: 'txn_t25b',
        amount: '10.00',
        created_date: '2026-03-25T12:00:00.000Z',
        fee_percentage: '2.9000000',
        net_amount: 9.41,
        other_details: { auth_code: 'AUTH01', card_brand: 'Visa', last_four: '4242' },
        status: 'completed',
        is_status: 2,
        type: 'Sale',
        payment_method: 'card',
        settled: true, // completed card rows of March are past every daily cutoff since
        order_id: 'order-txn_t25b',
      },
    ]);
  });

  it('reads the query string when there is no body', async () => {
    const res = await s.http({
      method: 'GET',
      path: `${LIST}?merchant_key=${m.merchant_key}&limit=3&pageNumber=1`,
      auth: m.auth,
    });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(['txn_t24', 'txn_t23', 'txn_t22']);
    expect(res.body.total).toBe(27);
  });

  it('lets the body win over the query string', async () => {
    const res = await s.http({
      method: 'GET',
      path: `${LIST}?merchant_key=mk_test_wrong&limit=1`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, limit: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
  });

  it('pages zero-based, and a page past the end is empty with the same total', async () => {
    const page = (n: number) =>
      s.http({
        method: 'GET',
        path: LIST,
        auth: m.auth,
        json: { merchant_key: m.merchant_key, limit: 10, pageNumber: n },
      });
    const [p0, p1, p2, p3] = await Promise.all([page(0), page(1), page(2), page(3)]);
    const all = [...ids(p0.body), ...ids(p1.body), ...ids(p2.body)];
    expect(all).toHaveLength(27);
    expect(new Set(all).size).toBe(27);
    expect(p3.body.data).toEqual([]);
    expect(p3.body.total).toBe(27);
    expect(ids(p2.body).at(-1)).toBe('txn_t01');
  });

  it('filters by inclusive UTC dates', async () => {
    const res = await s.http({
      method: 'GET',
      path: LIST,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, from_date: '2026-03-24', to_date: '2026-03-25', limit: '100' },
    });
    expect(ids(res.body)).toEqual(['txn_t25b', 'txn_t25', 'txn_t24']);
    expect(res.body.total).toBe(3);
  });

  it("never shows another merchant's transactions", async () => {
    const res = await s.http({
      method: 'GET',
      path: LIST,
      auth: other.auth,
      json: { merchant_key: other.merchant_key },
    });
    expect(ids(res.body)).toEqual(['txn_foreign']);
    expect(res.body.total).toBe(1);
  });

  it.each([
    [{ limit: 0 }, 'limit', LIMIT_RULE],
    [{ limit: '-5' }, 'limit', LIMIT_RULE],
    [{ limit: 101 }, 'limit', LIMIT_RULE],
    [{ limit: 'all' }, 'limit', LIMIT_RULE],
    [{ pageNumber: -1 }, 'pageNumber', 'must be a whole number from 0 (the first page) to 1000000'],
    [{ from_date: '2026-13-01' }, 'from_date', 'must be a date YYYY-MM-DD that exists'],
    [{ from_date: '2026-03-05', to_date: '2026-03-04' }, 'from_date', 'must be on or before to_date'],
  ])('400 for %j naming the rule on %s', async (params, path, message) => {
    const res = await s.http({
      method: 'GET',
      path: LIST,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, ...params },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_request' });
    expect(res.body.errors).toContainEqual({ path, message });
    expect(res.body.message).toContain(message);
  });

  it('400 when merchant_key is missing, 401 when it is unknown', async () => {
    const missing = await s.http({ method: 'GET', path: LIST, auth: m.auth, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toContain('merchant_key');
    const unknown = await s.http({ method: 'GET', path: LIST, auth: m.auth, json: { merchant_key: 'mk_test_nope' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ result: false, code: 'invalid_merchant_key' });
  });

  it('400 for a body that is not an object, and for malformed JSON', async () => {
    const arr = await s.http({ method: 'GET', path: LIST, auth: m.auth, json: [m.merchant_key] });
    expect(arr.status).toBe(400);
    const bad = await s.http({
      method: 'GET',
      path: LIST,
      auth: m.auth,
      raw: '{"merchant_key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: false, code: 'malformed_json' });
  });

  it('writes nothing', async () => {
    const before = await tableCounts(s.core);
    await s.http({ method: 'GET', path: LIST, auth: m.auth, json: { merchant_key: m.merchant_key } });
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('GET /merchant/transactions/{transaction_id}', () => {
  it('returns data as an array holding the one transaction, with the single-item names', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions/txn_t03',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.data).toEqual([
      {
        transaction_id: 'txn_t03',
        amount: '10.00',
        transaction_date: '2026-03-03T12:00:00.000Z',
        fee_percentage: '2.9000000',
        net_amount: 9.41,
        other_details: { authcode: 'AUTH01', cardType: 'Visa', lastFourDigits: '4242' },
        status: 'completed',
        is_status: 2,
        type: 'Sale',
        payment_method: 'card',
        settled: true, // a completed card payment of March is past every daily cutoff since
        order_id: 'order-txn_t03',
      },
    ]);
  });

  it('takes merchant_key from the query string too', async () => {
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions/txn_t03?merchant_key=${m.merchant_key}`,
      auth: m.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].transaction_id).toBe('txn_t03');
  });

  it("404 for an unknown id and for another merchant's transaction, with the same message", async () => {
    const unknown = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions/${newId.transaction()}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    const foreign = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions/txn_foreign',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    for (const res of [unknown, foreign]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: false, code: 'transaction_not_found' });
      expect(res.body.message).toMatch(/^Transaction not found/);
    }
    expect(foreign.body.message).toBe(unknown.body.message);
  });

  it("401 for another client's merchant_key, the same body as an unknown key", async () => {
    const path = '/api/v1/merchant/transactions/txn_t03';
    const foreign = await s.http({ method: 'GET', path, auth: other.auth, json: { merchant_key: m.merchant_key } });
    const unknown = await s.http({ method: 'GET', path, auth: other.auth, json: { merchant_key: 'mk_test_unknown' } });
    expect(foreign.status).toBe(401);
    const { request_id: _a, ...f } = foreign.body;
    const { request_id: _b, ...u } = unknown.body;
    expect(f).toEqual(u);
  });
});
