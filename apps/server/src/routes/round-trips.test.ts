import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDbKind, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { charge, newCustomer } from '../testing/payments.js';

/**
 * The statements each hot route sends to the database, counted at the driver (BEGIN and COMMIT
 * included: each is a round trip), so that a change adding round trips fails here. Run with no
 * workers, so only the request's own statements are counted.
 */

let s: TestServer;
let m: TestMerchant;
let card: number;
let sent: string[] = [];
let counting = false;
beforeAll(async () => {
  s = await startTestServer({ onStatement: (text) => counting && sent.push(text) });
  m = await newMerchant(s);
  card = await newCustomer(s, m);
});
afterAll(() => s.close());

/** The statements one request sends, after a first identical request warmed any cache. */
async function statementsOf(send: () => Promise<{ status: number; body: any }>): Promise<string[]> {
  expect((await send()).status).toBe(200);
  sent = [];
  counting = true;
  try {
    const r = await send();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  } finally {
    counting = false;
  }
  if (process.env.SHOW_STATEMENTS) console.log(shape(sent).join(" | "));
  return sent;
}

const api = (method: 'GET' | 'POST', path: string, body: object) =>
  s.http({ method, path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...body } });

/*
 * No route here looks its merchant up: the cache answers on both databases (on Postgres checked
 * against the merchants' epoch that the rate-limit statement reads), the warm-up request filled it.
 */
/** The API's per-client rate limit: one statement (`with clock as …`) counts every authenticated request. */
const limiter = 1;

const shape = (statements: string[]) => statements.map((q) => q.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase());

describe(`round trips per hot route (${testDbKind})`, () => {
  it('POST /pay-link: the rate-limit count (reading the merchants\' epoch on Postgres), then one statement writes the link and its sale', async () => {
    const q = await statementsOf(() => api('POST', '/pay-link', { amount: '25.00' }));
    expect(shape(q)).toEqual([expect.stringMatching(/^with clock as/), expect.stringMatching(/^with link as/)]);
    expect(q[0]!.includes('merchant_epoch')).toBe(testDbKind === 'postgres');
  });

  it('POST /customers/charge/{id}: at most 4 (rate limit, customer, method, then one statement writes the sale and its event)', async () => {
    let n = 0;
    const q = await statementsOf(() => api('POST', `/customers/charge/${card}`, { amount: 12.5, order_id: `rt-${n++}`, preAuth: false }));
    expect(q.length, shape(q).join('\n')).toBeLessThanOrEqual(3 + limiter);
  });

  it('POST /order/sales-return: at most 5 (rate limit, then one transaction: the lock, then one statement writes record, balance and event)', async () => {
    const id = await charge(s, m, card, '50.00');
    const q = await statementsOf(() => api('POST', '/order/sales-return', { transaction_id: id, amount: '0.01' }));
    expect(q.length, shape(q).join('\n')).toBeLessThanOrEqual(4 + limiter);
    expect(shape(q)).toContain('begin');
    expect(shape(q).some((x) => x.includes('for update') || /^select/.test(x))).toBe(true);
  });

  it('POST /preauth/update: at most 5 (rate limit, then one transaction: the lock, then one statement writes the update and its event)', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true, order_id: 'rt-pa' });
    let cents = 1000;
    const q = await statementsOf(async () => {
      const next = cents + 1;
      const r = await api('POST', '/preauth/update', {
        transaction_id: id,
        last_authorized_amount: (cents / 100).toFixed(2),
        new_authorized_amount: (next / 100).toFixed(2),
        order_id: 'rt-pa',
      });
      if (r.status === 200) cents = next;
      return r;
    });
    expect(q.length, shape(q).join('\n')).toBeLessThanOrEqual(4 + limiter);
  });

  it('GET /merchant/transactions: at most 3 (rate limit, the day counts, the page)', async () => {
    const q = await statementsOf(() => api('GET', '/merchant/transactions', { limit: '20', pageNumber: 0 }));
    expect(q.length, shape(q).join('\n')).toBeLessThanOrEqual(2 + limiter);
  });

  it('a merchant changed in the database is seen by the very next request (the lookup cache never goes stale)', async () => {
    const other = await newMerchant(s);
    const customer = await newCustomer(s, other);
    const chargeIt = () =>
      s.http({ method: 'POST', path: `/api/v1/customers/charge/${customer}`, auth: other.auth, json: { merchant_key: other.merchant_key, amount: 1, order_id: 'stale', preAuth: false } });
    expect((await chargeIt()).status).toBe(200);
    await s.core.ctx.db.execute(sql`update merchants set status = 'pending' where id = ${other.merchant_id}`);
    const refused = await chargeIt();
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('merchant_not_approved');
    await s.core.ctx.db.execute(sql`update merchants set status = 'approved' where id = ${other.merchant_id}`);
    expect((await chargeIt()).status).toBe(200);
  });
});
