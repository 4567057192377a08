import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant } from '../testing/fixtures.js';

// The list's `total` comes from per-day counts a trigger keeps; they must match the rows exactly,
// also when many payments of one merchant commit at once.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

it('total equals the rows after 40 concurrent charges, with and without a date range', async () => {
  const m = await newMerchant(s);
  const customer = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Ada', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } },
  });
  const id = customer.body.data.customer_id;
  const charges = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      s.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${id}`,
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: 1 + i, order_id: `count-${i}` },
      }),
    ),
  );
  expect(charges.every((c) => c.status === 200)).toBe(true);
  const rows = (await s.core.ctx.db.execute(
    sql`select count(*)::int as n from transactions t join merchants m on m.id = t.merchant_id where m.public_key = ${m.public_key}`,
  )) as unknown as { rows: Array<{ n: number }> };
  expect(rows.rows[0]!.n).toBe(40);

  const list = (json: object) =>
    s.http({ method: 'GET', path: '/api/v1/merchant/transactions', auth: m.auth, json: { merchant_key: m.merchant_key, ...json } });
  expect((await list({})).body.total).toBe(40);
  const today = String(charges[0]!.body.data.created_date).slice(0, 10);
  expect((await list({ from_date: today, to_date: today })).body.total).toBe(40);
  expect((await list({ to_date: '2020-01-01' })).body.total).toBe(0);
  expect((await list({ from_date: '2999-01-01' })).body.total).toBe(0);
});
