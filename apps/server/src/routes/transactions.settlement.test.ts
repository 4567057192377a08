import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant } from '../testing/fixtures.js';
import { charge, newCustomer, noonClock } from '../testing/payments.js';

// `settled` in the list and the single view follows the daily cutoff on the merchant's clock,
// before any void, refund or /sandbox/settle has flagged the row.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() }); // far from the midnight cutoff and day change
});
afterAll(() => s.close());

it('a card payment reads as settled once the merchant clock passes the next cutoff', async () => {
  const m = await newMerchant(s);
  const call = (method: string, path: string, json: object) =>
    s.http({ method, path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...json } });
  const id = await charge(s, m, await newCustomer(s, m), '20.00');
  const settledInList = async () =>
    (await call('GET', '/merchant/transactions', {})).body.data.find(
      (t: { transaction_id: string }) => t.transaction_id === id,
    ).settled;
  const settledSingle = async () => (await call('GET', `/merchant/transactions/${id}`, {})).body.data[0].settled;

  expect(await settledInList()).toBe(false);
  expect(await settledSingle()).toBe(false);
  const advanced = await s.http({
    method: 'POST',
    path: '/sandbox/advance-clock',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, hours: 25 },
  });
  expect(advanced.status).toBe(200);
  expect(await settledInList()).toBe(true);
  expect(await settledSingle()).toBe(true);
  // And the void rule agrees with what the list shows.
  const voided = await call('POST', '/order/sales-void', { transaction_id: id });
  expect(voided.status).toBe(400);
  expect(voided.body.message).toBe('The transaction has been settled, a void is not allowed.');
});
