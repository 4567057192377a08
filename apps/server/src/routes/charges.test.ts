import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TEST_CARDS } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';

let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
});
afterAll(() => s.close());

const nextYear = new Date().getUTCFullYear() + 1;
const card = (number: string) => ({
  number,
  exp_month: 12,
  exp_year: nextYear,
  cvc: number.length === 15 ? '1234' : '123',
  zip: '94105',
});
const bank = (account_number = '000123456789') => ({
  routing_number: '011000015',
  account_number,
  account_type: 'checking',
});

/** Raw rows; Postgres returns bigint (the `_cents` columns) as text, PGlite as numbers: read both as numbers. */
async function rows<T = Record<string, any>>(q: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await s.core.ctx.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> };
  return r.rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, k.endsWith('_cents') && typeof v === 'string' ? Number(v) : v]),
    ),
  ) as T[];
}

async function customer(method: Record<string, unknown>, who: TestMerchant = m): Promise<number> {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, first_name: 'Pat', email: 'pat@example.com', ...method },
  });
  if (res.status !== 200) throw new Error(`customer add failed: ${res.text}`);
  return res.body.data.customer_id;
}

const charge = (id: number | string, json: Record<string, unknown>, who: TestMerchant = m) =>
  s.http({
    method: 'POST',
    path: `/api/v1/customers/charge/${id}`,
    auth: who.auth,
    json: { merchant_key: who.merchant_key, ...json },
  });

const DATA_KEYS = [
  'amount',
  'auth_code',
  'card_brand',
  'created_date',
  'customer_id',
  'fee_amount',
  'fee_percentage',
  'is_status',
  'last_four',
  'net_amount',
  'order_id',
  'payment_method',
  'status',
  'transaction_id',
  'type',
];

describe('POST /customers/charge/{customerId}: cards', () => {
  it.each([
    ['4242424242424242', 'Visa'],
    ['5555555555554444', 'Mastercard'],
    ['378282246310005', 'Amex'],
    ['6011111111111117', 'Discover'],
  ])('approves test card %s (%s): completed sale, fee 0.59 of 10.00, payment.success', async (number, brand) => {
    const id = await customer({ card: card(number) });
    const order_id = `ord-${brand}`;
    const res = await charge(id, { amount: 10, order_id, preAuth: false });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result', 'transaction_id']);
    expect(res.body).toMatchObject({ result: true, message: 'Payment approved.' });
    expect(res.text).not.toContain(number);
    const t = res.body.transaction_id;
    expect(t).toMatch(/^txn_[0-9A-Za-z]{20}$/);
    expect(Object.keys(res.body.data).sort()).toEqual(DATA_KEYS);
    expect(res.body.data).toEqual({
      transaction_id: t,
      amount: '10.00',
      status: 'completed',
      is_status: 2,
      type: 'Sale',
      payment_method: 'card',
      auth_code: expect.stringMatching(/^\d{6}$/),
      card_brand: brand,
      last_four: number.slice(-4),
      fee_amount: 0.59,
      fee_percentage: '2.9000000',
      net_amount: 9.41,
      order_id,
      customer_id: id,
      created_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const [row] = await rows(sql`select * from transactions where id = ${t}`);
    expect(row).toMatchObject({
      merchant_id: m.merchant_id,
      type: 'Sale',
      payment_method: 'card',
      is_status: 2,
      status: 'completed',
      amount_cents: 1000,
      fee_cents: 59,
      fee_rate_e7: 29_000_000,
      net_cents: 941,
      customer_id: id,
      order_id,
      order_createdfrom: 'API',
      auth_code: res.body.data.auth_code,
      card_brand: brand,
      last_four: number.slice(-4),
      authorized_cents: null,
      decline_reason: null,
    });
    expect(row!.completed_at).not.toBeNull();

    const events = await rows(sql`select * from events where payload->>'transaction_id' = ${t}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_type: 'payment.success',
      merchant_id: m.merchant_id,
      client_id: m.auth[0],
    });
    expect(events[0]!.payload).toEqual({
      transaction_id: t,
      merchant_id: m.merchant_id,
      amount: 10,
      net_amount: 9.41,
      fee_amount: 0.59,
      order_id,
      last_four: number.slice(-4),
      brand,
      link_id: '',
    });
  });

  const declines = Object.entries(TEST_CARDS).filter(([, r]) => r.outcome === 'decline') as Array<
    [string, { outcome: 'decline'; code: string; message: string }]
  >;
  it('covers the five declining test cards', () => {
    expect(declines.map(([, r]) => r.code)).toEqual([
      'card_declined',
      'insufficient_funds',
      'expired_card',
      'incorrect_cvc',
      'authentication_required',
    ]);
  });

  it.each(declines)(
    'declines test card %s with 402, its code and message; recorded, and payment.failed its one event',
    async (number, rule) => {
      const id = await customer({ card: card(number) });
      const res = await charge(id, { amount: '25.50', order_id: `dec-${rule.code}` });
      expect(res.status).toBe(402);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'request_id', 'result', 'transaction_id']);
      expect(res.body).toMatchObject({ result: false, code: rule.code, message: rule.message });
      const [row] = await rows(sql`select * from transactions where id = ${res.body.transaction_id}`);
      expect(row).toMatchObject({
        type: 'Sale',
        is_status: 3,
        status: 'declined',
        decline_reason: rule.message,
        amount_cents: 2550,
        fee_cents: 0,
        net_cents: 0,
        customer_id: id,
        order_createdfrom: 'API',
        last_four: number.slice(-4),
      });
      const events = await rows<{ event_type: string; payload: unknown }>(
        sql`select event_type, payload from events where payload->>'transaction_id' = ${res.body.transaction_id}`,
      );
      expect(events.map((e) => e.event_type)).toEqual(['payment.failed']);
      const payload = typeof events[0]!.payload === 'string' ? JSON.parse(events[0]!.payload) : events[0]!.payload;
      expect(payload).toEqual({
        transaction_id: res.body.transaction_id,
        merchant_id: row!.merchant_id,
        order_id: `dec-${rule.code}`,
        amount: 25.5,
        code: rule.code,
        message: rule.message,
        method: 'card',
      });
    },
  );

  it('preAuth true places a hold: PreAuth, is_status 1, authorized_cents, no event', async () => {
    const id = await customer({ card: card('4242424242424242') });
    const res = await charge(id, { amount: '123.45', order_id: 'hold-1', preAuth: true });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Preauthorization approved.');
    expect(res.body.data).toMatchObject({
      amount: '123.45',
      status: 'authorized',
      is_status: 1,
      type: 'PreAuth',
      card_brand: 'Visa',
    });
    const [row] = await rows(sql`select * from transactions where id = ${res.body.transaction_id}`);
    expect(row).toMatchObject({
      type: 'PreAuth',
      is_status: 1,
      status: 'authorized',
      amount_cents: 12345,
      authorized_cents: 12345,
      completed_at: null,
    });
    expect(await rows(sql`select * from events where payload->>'transaction_id' = ${res.body.transaction_id}`)).toEqual(
      [],
    );
  });

  it('accepts numeric text for amount and "true"/"false" for preAuth', async () => {
    const id = await customer({ card: card('4242424242424242') });
    const res = await charge(id, { amount: '0.50', order_id: 'txt', preAuth: 'false' });
    expect(res.status).toBe(200);
    // The fixed 0.30 is more than 2.9% of a tiny amount; net stays amount − fee.
    expect(res.body.data).toMatchObject({ amount: '0.50', fee_amount: 0.31, net_amount: 0.19, is_status: 2 });
  });

  it.each([
    [{ amount: '10.001', order_id: 'x' }, 'amount'],
    [{ amount: 0, order_id: 'x' }, 'amount'],
    [{ amount: -5, order_id: 'x' }, 'amount'],
    [{ amount: 'ten', order_id: 'x' }, 'amount'],
    [{ order_id: 'x' }, 'amount'],
    [{ amount: 10 }, 'order_id'],
    [{ amount: 10, order_id: 'x'.repeat(101) }, 'order_id'],
    [{ amount: 10, order_id: 'x', preAuth: 'maybe' }, 'preAuth'],
  ])('400 naming the field for %o; nothing written', async (json, path) => {
    const id = await customer({ card: card('4242424242424242') });
    const before = await tableCounts(s.core);
    const res = await charge(id, json);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('refuses an amount above the merchant limit', async () => {
    const other = await newMerchant(s, { auth: m.auth });
    await s.core.ctx.db.execute(sql`update merchants set max_amount_cents = 5000 where id = ${other.merchant_id}`);
    const id = await customer({ card: card('4242424242424242') }, other);
    const res = await charge(id, { amount: 60, order_id: 'big' }, other);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'amount_over_limit',
      message: 'amount must be at most 50.00 for this merchant.',
    });
  });

  it('an Idempotency-Key replays the first charge instead of charging twice', async () => {
    const id = await customer({ card: card('4242424242424242') });
    const send = () =>
      s.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${id}`,
        auth: m.auth,
        headers: { 'idempotency-key': `charge-${id}` },
        json: { merchant_key: m.merchant_key, amount: 10, order_id: 'idem' },
      });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await rows(sql`select id from transactions where customer_id = ${id}`)).toHaveLength(1);
  });

  it("dates the transaction on the merchant's sandbox clock", async () => {
    const other = await newMerchant(s, { auth: m.auth });
    const threeDays = 3 * 24 * 3600 * 1000;
    await s.core.ctx.db.execute(
      sql`update merchants set clock_offset_ms = ${threeDays} where id = ${other.merchant_id}`,
    );
    const id = await customer({ card: card('4242424242424242') }, other);
    const res = await charge(id, { amount: 10, order_id: 'clock' }, other);
    const ahead = Date.parse(res.body.data.created_date) - Date.now();
    expect(ahead).toBeGreaterThan(threeDays - 60_000);
    expect(ahead).toBeLessThan(threeDays + 60_000);
  });
});

describe('POST /customers/charge/{customerId}: bank accounts (ACH)', () => {
  it('2000.00 by ACH: pending sale, fee capped at 10.00, no event yet', async () => {
    const id = await customer({ bank_account: bank() });
    const res = await charge(id, { amount: 2000, order_id: 'ach-1', preAuth: false });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('ACH payment submitted; it stays pending until the bank approves it.');
    expect(res.body.data).toEqual({
      transaction_id: res.body.transaction_id,
      amount: '2000.00',
      status: 'pending',
      is_status: 0,
      type: 'Sale',
      payment_method: 'ach',
      auth_code: '',
      card_brand: 'ACH',
      last_four: '6789',
      fee_amount: 10,
      fee_percentage: '1.0000000',
      net_amount: 1990,
      order_id: 'ach-1',
      customer_id: id,
      created_date: expect.any(String),
    });
    const [row] = await rows(sql`select * from transactions where id = ${res.body.transaction_id}`);
    expect(row).toMatchObject({
      payment_method: 'ach',
      is_status: 0,
      status: 'pending',
      fee_cents: 1000,
      fee_rate_e7: 10_000_000,
      net_cents: 199_000,
      order_createdfrom: 'API',
      completed_at: null,
    });
    expect(row!.payment_method_id).toMatch(/^pm_/);
    expect(row!.gateway_ref).toMatch(/^gw_/);
    expect(await rows(sql`select * from events where payload->>'transaction_id' = ${res.body.transaction_id}`)).toEqual(
      [],
    );
  });

  it('50.00 by ACH: fee 1% = 0.50', async () => {
    const id = await customer({ bank_account: bank('11112222') });
    const res = await charge(id, { amount: '50.00', order_id: 'ach-2' });
    expect(res.body.data).toMatchObject({ fee_amount: 0.5, net_amount: 49.5 });
  });

  it('the pending ACH sale completes through /update-ach and only then emits payment.success', async () => {
    const id = await customer({ bank_account: bank('55556666') });
    const res = await charge(id, { amount: 40, order_id: 'ach-ok' });
    const t = res.body.transaction_id;
    const up = await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: t, new_status: 'approved' },
    });
    expect(up.status).toBe(200);
    const [row] = await rows(sql`select is_status, status from transactions where id = ${t}`);
    expect(row).toEqual({ is_status: 2, status: 'completed' });
    const [ev] = await rows(
      sql`select payload from events where event_type = 'payment.success' and payload->>'transaction_id' = ${t}`,
    );
    expect(ev!.payload).toEqual({
      transaction_id: t,
      merchant_id: m.merchant_id,
      amount: 40,
      net_amount: 39.6,
      fee_amount: 0.4,
      order_id: 'ach-ok',
      last_four: '6666',
      brand: 'ACH',
      link_id: '',
    });
  });

  it('preAuth on a bank account → 400, nothing written', async () => {
    const id = await customer({ bank_account: bank() });
    const before = await tableCounts(s.core);
    const res = await charge(id, { amount: 10, order_id: 'ach-hold', preAuth: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'preauth_needs_card' });
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('POST /customers/charge/{customerId}: refusals', () => {
  it('pending merchant → 400 merchant_not_approved', async () => {
    const pending = await newMerchant(s, { approve: false });
    const id = await customer({ card: card('4242424242424242') }, pending);
    const before = await tableCounts(s.core);
    const res = await charge(id, { amount: 10, order_id: 'p' }, pending);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      code: 'merchant_not_approved',
      message: 'Merchant is not approved for payments yet.',
    });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it("unknown customer or another merchant's → 404", async () => {
    const other = await newMerchant(s, { auth: m.auth });
    const theirs = await customer({ card: card('4242424242424242') }, other);
    for (const id of [theirs, 999_999, 'abc']) {
      const res = await charge(id, { amount: 10, order_id: 'nf' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: false, code: 'customer_not_found', message: 'Customer not found.' });
    }
  });

  it('customer without a payment method → 400', async () => {
    const id = await customer({});
    const res = await charge(id, { amount: 10, order_id: 'none' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('no_payment_method');
    expect(res.body.message).toContain('request-card');
  });

  it("another client's merchant_key → 401 and nothing written", async () => {
    const id = await customer({ card: card('4242424242424242') });
    const stranger = await s.credentials();
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: `/api/v1/customers/charge/${id}`,
      auth: stranger,
      json: { merchant_key: m.merchant_key, amount: 10, order_id: 'steal' },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_merchant_key');
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('secrets at rest', () => {
  it('no full card number, account number or CVC in any table', async () => {
    const dump: string[] = [];
    for (const t of ['customers', 'payment_methods', 'transactions', 'events', 'messages', 'pay_links']) {
      dump.push(JSON.stringify(await rows(sql.raw(`select * from ${t}`))));
    }
    const text = dump.join('\n');
    expect(text.length).toBeGreaterThan(1000);
    for (const n of Object.keys(TEST_CARDS)) expect(text).not.toContain(n);
    expect(text).not.toContain('000123456789');
    expect(text).not.toContain('11112222');
    const cols = await rows<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'payment_methods'`,
    );
    expect(cols.map((c) => c.column_name)).not.toContain('cvc');
  });
});
