import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant } from '../testing/fixtures.js';
import { charge, newCustomer, noonClock } from '../testing/payments.js';

// The list's `total` comes from per-day counts a trigger keeps; they must match the rows exactly,
// also when many payments of one merchant commit at once.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() }); // far from the midnight cutoff and day change
});
afterAll(() => s.close());

it('total equals the rows after 40 concurrent charges, with and without a date range', async () => {
  const m = await newMerchant(s);
  const customer = await newCustomer(s, m);
  const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => charge(s, m, customer, `${1 + i}.00`)));
  expect(new Set(ids).size).toBe(40);
  const rows = (await s.core.ctx.db.execute(
    sql`select count(*)::int as n from transactions t join merchants m on m.id = t.merchant_id where m.public_key = ${m.public_key}`,
  )) as unknown as { rows: Array<{ n: number }> };
  expect(rows.rows[0]!.n).toBe(40);

  const list = (json: object) =>
    s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, ...json },
    });
  expect((await list({})).body.total).toBe(40);
  const first = await s.http({
    method: 'GET',
    path: `/api/v1/merchant/transactions/${ids[0]}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key },
  });
  const today = String(first.body.data[0].transaction_date).slice(0, 10);
  expect((await list({ from_date: today, to_date: today })).body.total).toBe(40);
  expect((await list({ to_date: '2020-01-01' })).body.total).toBe(0);
  expect((await list({ from_date: '2999-01-01' })).body.total).toBe(0);
});
