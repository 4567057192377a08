import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { bankAccount, charge, newCustomer, noonClock, rows, txnRow } from '../testing/payments.js';

let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() });
  m = await newMerchant(s);
});
afterAll(() => s.close());

const sandbox = (path: string, body: object, as: TestMerchant = m) =>
  s.http({ method: 'POST', path: `/sandbox${path}`, auth: as.auth, json: { merchant_key: as.merchant_key, ...body } });

describe('POST /sandbox/advance-clock', () => {
  it("moves the merchant's clock forward; advances add up", async () => {
    const m2 = await newMerchant(s, { auth: m.auth });
    const before = s.core.ctx.now().getTime();
    const r1 = await sandbox('/advance-clock', { hours: 25 }, m2);
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({ result: true, data: { merchant_id: m2.merchant_id, offset_hours: 25 } });
    expect(Date.parse(r1.body.data.clock) - before).toBeGreaterThanOrEqual(25 * 3_600_000);
    const r2 = await sandbox('/advance-clock', { hours: '0.5' }, m2);
    expect(r2.body.data.offset_hours).toBe(25.5);
    const [row] = await rows(s, sql`select clock_offset_ms::bigint as o from merchants where id = ${m2.merchant_id}`);
    expect(Number(row!.o)).toBe(25.5 * 3_600_000);
  });

  it.each([[0], [-1], [24 * 365 + 1], ['abc'], [null]])('hours %j → 400 naming hours', async (hours) => {
    const res = await sandbox('/advance-clock', { hours });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('hours');
  });

  it('needs credentials and a merchant_key of this client', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      json: { merchant_key: m.merchant_key, hours: 1 },
    });
    expect(res.status).toBe(401);
    const other = await s.credentials();
    const r2 = await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      auth: other,
      json: { merchant_key: m.merchant_key, hours: 1 },
    });
    expect(r2.status).toBe(401);
  });
});

describe('POST /sandbox/settle', () => {
  it('settles every completed, unsettled card payment of the merchant and nothing else', async () => {
    const m2 = await newMerchant(s, { auth: m.auth });
    const card = await newCustomer(s, m2);
    const bank = await newCustomer(s, m2, { bank_account: bankAccount() });
    const sale = await charge(s, m2, card, '10.00');
    const pre = await charge(s, m2, card, '10.00', { preAuth: true });
    const ach = await charge(s, m2, bank, '10.00');
    const res = await sandbox('/settle', {}, m2);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: true,
      message: 'Settled 1 transaction.',
      data: { merchant_id: m2.merchant_id, settled_count: 1, transaction_ids: [sale] },
    });
    expect(await txnRow(s, sale)).toMatchObject({ settled: true });
    expect(await txnRow(s, pre)).toMatchObject({ settled: false, is_status: 1 });
    expect(await txnRow(s, ach)).toMatchObject({ settled: false, is_status: 0 });
    const again = await sandbox('/settle', {}, m2);
    expect(again.body.data.settled_count).toBe(0);
  });
});
