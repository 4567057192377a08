import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createCredentials, TEST_CARDS } from '@remit/core';
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
const visa = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: nextYear, cvc: '987', zip: '94105' };
const bank = {
  routing_number: '011000015',
  account_number: '000123456789',
  account_type: 'checking',
  holder_name: 'Grace Hopper',
};

async function rows<T = Record<string, unknown>>(q: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await s.core.ctx.db.execute(q)) as unknown as { rows: T[] };
  return r.rows;
}

const add = (json: Record<string, unknown>, who: TestMerchant = m) =>
  s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, ...json },
  });

describe('POST /customers/add', () => {
  it('adds a customer with only first_name', async () => {
    const res = await add({ first_name: 'Ada' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(Object.keys(res.body.data).sort()).toEqual(['customer_email', 'customer_id', 'customer_phone']);
    expect(Number.isInteger(res.body.data.customer_id)).toBe(true);
    expect(res.body.data.customer_id).toBeGreaterThan(0);
    expect(res.body.data).toMatchObject({ customer_email: '', customer_phone: '' });
  });

  it('returns email and the phone as E.164; blank optional fields count as absent', async () => {
    const res = await add({
      first_name: 'Grace',
      last_name: '',
      email: 'grace@example.com',
      phone_number: '(415) 555-0142',
      card: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ customer_email: 'grace@example.com', customer_phone: '+14155550142' });
    const [c] = await rows(sql`select * from customers where id = ${res.body.data.customer_id}`);
    expect(c).toMatchObject({
      merchant_id: m.merchant_id,
      first_name: 'Grace',
      last_name: null,
      phone_number: '+14155550142',
    });
  });

  it('stores a sandbox test card encrypted, with brand and last four in clear, as the default', async () => {
    const res = await add({ first_name: 'Card', card: visa });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('4242424242424242');
    const pms = await rows(sql`select * from payment_methods where customer_id = ${res.body.data.customer_id}`);
    expect(pms).toHaveLength(1);
    expect(pms[0]).toMatchObject({
      type: 'card',
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: nextYear,
      is_default: true,
    });
    expect(Object.keys(pms[0]!)).not.toContain('cvc');
    expect(String(pms[0]!.number_enc)).toMatch(/^v2\.[0-9a-f]{12}\./);
    expect(s.core.ctx.vault.decrypt(String(pms[0]!.number_enc))).toBe('4242424242424242');
    expect(JSON.stringify(pms)).not.toContain('4242424242424242');
    expect(JSON.stringify(pms)).not.toContain('"987"');
  });

  it.each([
    ['5555555555554444', 'Mastercard'],
    ['378282246310005', 'Amex'],
    ['6011111111111117', 'Discover'],
  ])('stores test card %s as %s', async (number, brand) => {
    const res = await add({ first_name: 'Brand', card: { ...visa, number, cvc: brand === 'Amex' ? '1234' : '123' } });
    expect(res.status).toBe(200);
    const [pm] = await rows(
      sql`select brand, last4 from payment_methods where customer_id = ${res.body.data.customer_id}`,
    );
    expect(pm).toEqual({ brand, last4: number.slice(-4) });
  });

  it('stores a bank account; with a card as well, the card (first added) is the default', async () => {
    const res = await add({ first_name: 'Both', card: visa, bank_account: bank });
    expect(res.status).toBe(200);
    const pms = await rows<Record<string, unknown>>(
      sql`select type, is_default, last4, routing_number, account_type, holder_name, number_enc from payment_methods where customer_id = ${res.body.data.customer_id} order by type desc`,
    );
    expect(pms.map((p) => [p.type, p.is_default])).toEqual([
      ['card', true],
      ['bank_account', false],
    ]);
    expect(pms[1]).toMatchObject({
      last4: '6789',
      routing_number: '011000015',
      account_type: 'checking',
      holder_name: 'Grace Hopper',
    });
    expect(JSON.stringify(pms)).not.toContain('000123456789');
    expect(s.core.ctx.vault.decrypt(String(pms[1]!.number_enc))).toBe('000123456789');
  });

  it('a bank account alone is the default; holder_name defaults to the customer name', async () => {
    const res = await add({
      first_name: 'Bank',
      last_name: 'Only',
      bank_account: { routing_number: '011000015', account_number: '98765432' },
    });
    expect(res.status).toBe(200);
    const pms = await rows(
      sql`select type, is_default, account_type, holder_name from payment_methods where customer_id = ${res.body.data.customer_id}`,
    );
    expect(pms).toEqual([
      { type: 'bank_account', is_default: true, account_type: 'checking', holder_name: 'Bank Only' },
    ]);
  });

  it('refuses a card that is not a sandbox test card, naming the test cards', async () => {
    const res = await add({ first_name: 'X', card: { ...visa, number: '4111111111111111' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'card_not_accepted' });
    for (const n of Object.keys(TEST_CARDS)) expect(res.body.message).toContain(n);
    expect(res.body.errors).toEqual([{ path: 'card.number', message: res.body.message }]);
  });

  it.each([
    ['Luhn-invalid number', { number: '4242424242424241' }, 'invalid_card_number', 'card.number'],
    ['expired card', { exp_month: 1, exp_year: new Date().getUTCFullYear() - 1 }, 'card_expired', 'card.exp_year'],
    ['month 13', { exp_month: 13 }, 'invalid_request', 'card.exp_month'],
    ['month 0', { exp_month: '0' }, 'invalid_request', 'card.exp_month'],
    ['2-letter cvc', { cvc: 'ab' }, 'invalid_request', 'card.cvc'],
    ['5-digit cvc', { cvc: '12345' }, 'invalid_request', 'card.cvc'],
    ['short number', { number: '4242' }, 'invalid_request', 'card.number'],
    ['expiry far ahead', { exp_year: nextYear + 40 }, 'invalid_card_expiry', 'card.exp_year'],
  ])('400 for a card with %s', async (_name, change, code, path) => {
    const before = await tableCounts(s.core);
    const res = await add({ first_name: 'X', card: { ...visa, ...change } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('accepts two-digit years and numeric text', async () => {
    const res = await add({ first_name: 'Y', card: { ...visa, exp_month: '07', exp_year: String(nextYear % 100) } });
    expect(res.status).toBe(200);
    const [pm] = await rows(
      sql`select exp_month, exp_year from payment_methods where customer_id = ${res.body.data.customer_id}`,
    );
    expect(pm).toEqual({ exp_month: 7, exp_year: nextYear });
  });

  it.each([
    ['routing number with a bad ABA checksum', { routing_number: '011000016' }, 'bank_account.routing_number'],
    ['8-digit routing number', { routing_number: '01100001' }, 'bank_account.routing_number'],
    ['3-digit account number', { account_number: '123' }, 'bank_account.account_number'],
    ['18-digit account number', { account_number: '1'.repeat(18) }, 'bank_account.account_number'],
    ['account type brokerage', { account_type: 'brokerage' }, 'bank_account.account_type'],
  ])('400 for a bank account with %s', async (_name, change, path) => {
    const res = await add({ first_name: 'X', bank_account: { ...bank, ...change } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it.each([
    ['no first_name', {}, 'first_name'],
    ['empty first_name', { first_name: '  ' }, 'first_name'],
    ['bad email', { first_name: 'A', email: 'nope' }, 'email'],
    ['bad phone', { first_name: 'A', phone_number: '123' }, 'phone_number'],
  ])('400 naming the field for %s', async (_name, json, path) => {
    const res = await add(json);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it("another client's merchant_key → 401 and nothing written", async () => {
    const stranger = await s.credentials();
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: stranger,
      json: { merchant_key: m.merchant_key, first_name: 'Eve', card: visa },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_merchant_key' });
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('GET /customers and GET /customers/{customerId}', () => {
  let other: TestMerchant;
  let ids: number[];
  beforeAll(async () => {
    other = await newMerchant(s, { auth: m.auth, business_name: 'Other Shop' });
    ids = [];
    for (const [i, extra] of [{}, { card: visa }, { bank_account: bank }].entries()) {
      const res = await add({ first_name: `L${i}`, last_name: 'List', email: `l${i}@example.com`, ...extra }, other);
      ids.push(res.body.data.customer_id);
    }
  });

  it('lists the merchant’s customers newest first with method summaries (merchant_key in the JSON body)', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/customers',
      auth: other.auth,
      json: { merchant_key: other.merchant_key },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe(true);
    expect(res.body.data).toMatchObject({ page: 0, perPage: 20, totalCount: 3, totalPage: 1 });
    expect(Object.keys(res.body.data).sort()).toEqual(['allList', 'page', 'perPage', 'totalCount', 'totalPage']);
    const list = res.body.data.allList;
    expect(list.map((c: { customer_id: number }) => c.customer_id)).toEqual([...ids].reverse());
    expect(Object.keys(list[0]).sort()).toEqual(
      ['created_date', 'customer_id', 'email', 'first_name', 'last_name', 'payment_methods', 'phone_number'].sort(),
    );
    expect(list[2]).toMatchObject({
      first_name: 'L0',
      last_name: 'List',
      email: 'l0@example.com',
      phone_number: '',
      payment_methods: [],
    });
    expect(list[2].created_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(list[1].payment_methods).toEqual([
      {
        type: 'card',
        brand: 'Visa',
        last_four: '4242',
        exp_month: 12,
        exp_year: nextYear,
        account_type: null,
        is_default: true,
      },
    ]);
    expect(list[0].payment_methods).toEqual([
      {
        type: 'bank_account',
        brand: '',
        last_four: '6789',
        exp_month: null,
        exp_year: null,
        account_type: 'checking',
        is_default: true,
      },
    ]);
    expect(res.text).not.toContain('4242424242424242');
    expect(res.text).not.toContain('000123456789');
  });

  it('pages with the query string: page is zero-based', async () => {
    const q = `merchant_key=${other.merchant_key}&perPage=2`;
    const p0 = await s.http({ method: 'GET', path: `/api/v1/customers?${q}&page=0`, auth: other.auth });
    const p1 = await s.http({ method: 'GET', path: `/api/v1/customers?${q}&page=1`, auth: other.auth });
    expect(p0.status).toBe(200);
    expect(p0.body.data).toMatchObject({ page: 0, perPage: 2, totalCount: 3, totalPage: 2 });
    expect(p0.body.data.allList.map((c: { customer_id: number }) => c.customer_id)).toEqual([ids[2], ids[1]]);
    expect(p1.body.data.allList.map((c: { customer_id: number }) => c.customer_id)).toEqual([ids[0]]);
    const past = await s.http({ method: 'GET', path: `/api/v1/customers?${q}&page=5`, auth: other.auth });
    expect(past.body.data).toMatchObject({ allList: [], page: 5, totalCount: 3 });
  });

  it.each([
    [{ perPage: 101 }, 'perPage'],
    [{ perPage: 0 }, 'perPage'],
    [{ page: -1 }, 'page'],
    [{ page: 'x' }, 'page'],
  ])('400 for %o', async (extra, path) => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/customers',
      auth: other.auth,
      json: { merchant_key: other.merchant_key, ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
  });

  it('GET /customers/{id} returns the same item', async () => {
    const list = await s.http({
      method: 'GET',
      path: '/api/v1/customers',
      auth: other.auth,
      json: { merchant_key: other.merchant_key },
    });
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/customers/${ids[1]}`,
      auth: other.auth,
      json: { merchant_key: other.merchant_key },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, message: expect.any(String), data: list.body.data.allList[1] });
    const byQuery = await s.http({
      method: 'GET',
      path: `/api/v1/customers/${ids[1]}?merchant_key=${other.merchant_key}`,
      auth: other.auth,
    });
    expect(byQuery.body.data).toEqual(res.body.data);
  });

  it.each([
    ['unknown', '999999'],
    ['not a number', 'abc'],
    ['zero', '0'],
    ['huge', '99999999999999'],
  ])('404 for an %s customer id', async (_name, id) => {
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/customers/${id}`,
      auth: other.auth,
      json: { merchant_key: other.merchant_key },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: false, code: 'customer_not_found', message: 'Customer not found.' });
  });

  it("404 for another merchant's customer (same client)", async () => {
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/customers/${ids[0]}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(404);
  });

  it("401 with another client's merchant_key", async () => {
    const stranger = await s.credentials();
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/customers',
      auth: stranger,
      json: { merchant_key: other.merchant_key },
    });
    expect(res.status).toBe(401);
  });
});

describe('POST /customers/request-card/{customerId}', () => {
  const requestCard = (id: number | string, who: TestMerchant = m) =>
    s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${id}`,
      auth: who.auth,
      json: { merchant_key: who.merchant_key },
    });

  it('queues an SMS and an email with the add-card link and makes a card_request link', async () => {
    const c = await add({
      first_name: 'Rita',
      last_name: 'Levi',
      email: 'rita@example.com',
      phone_number: '+1 415 555 0199',
    });
    const id = c.body.data.customer_id;
    const res = await requestCard(id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, message: 'Card request sent to the customer by SMS and email.' });
    const [link] = await rows<Record<string, unknown>>(sql`select * from pay_links where customer_id = ${id}`);
    expect(link).toMatchObject({
      kind: 'card_request',
      status: 'open',
      merchant_id: m.merchant_id,
      is_request_card: true,
      email: 'rita@example.com',
    });
    const url = `${s.url}/pay/card/${link!.id}`;
    const msgs = await rows<Record<string, unknown>>(
      sql`select * from messages where pay_link_id = ${link!.id} order by channel`,
    );
    expect(msgs.map((x) => [x.channel, x.recipient, x.status])).toEqual([
      ['email', 'rita@example.com', 'pending'],
      ['sms', '+14155550199', 'pending'],
    ]);
    for (const msg of msgs) expect(String(msg.body_text)).toContain(url);
    expect(String(msgs[0]!.body_html)).toContain(url);
    expect(String(msgs[0]!.subject)).toContain('Acme Coffee LLC');
    expect(String(msgs[1]!.body_text)).toContain('Hi Rita Levi');
  });

  it('sends only what the customer has (email only)', async () => {
    const c = await add({ first_name: 'Mail', email: 'mail@example.com' });
    const res = await requestCard(c.body.data.customer_id);
    expect(res.body.message).toBe('Card request sent to the customer by email.');
  });

  it('400 for a customer with neither email nor phone, nothing written', async () => {
    const c = await add({ first_name: 'Nobody' });
    const before = await tableCounts(s.core);
    const res = await requestCard(c.body.data.customer_id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'customer_unreachable' });
    expect(res.body.message).toContain('no email or phone number');
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('404 for an unknown customer; 401 for a foreign merchant_key', async () => {
    expect((await requestCard(999999)).status).toBe(404);
    const c = await add({ first_name: 'Mine', email: 'mine@example.com' });
    const stranger = await s.credentials();
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${c.body.data.customer_id}`,
      auth: stranger,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(401);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('production', () => {
  let p: TestServer;
  let pm: TestMerchant;
  beforeAll(async () => {
    p = await startTestServer({ env: 'production' });
    const c = await createCredentials(p.core.ctx);
    pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
  });
  afterAll(() => p.close());

  it.each([
    ['card', { card: visa }],
    ['bank_account', { bank_account: bank }],
  ])('refuses raw %s data, pointing at request-card; nothing written', async (_name, extra) => {
    const before = await tableCounts(p.core);
    const res = await p.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: pm.auth,
      json: { merchant_key: pm.merchant_key, first_name: 'Live', ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'raw_payment_data_not_allowed' });
    expect(res.body.message).toContain('/customers/request-card/{customerId}');
    expect(res.body.message).toContain('add-card page');
    expect(await tableCounts(p.core)).toEqual(before);
  });

  it('adds a customer without payment data', async () => {
    const res = await p.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: pm.auth,
      json: { merchant_key: pm.merchant_key, first_name: 'Live' },
    });
    expect(res.status).toBe(200);
  });

  it('request-card with no transport for any of the customer’s contacts: 503 saying so, nothing written', async () => {
    const add = await p.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: pm.auth,
      json: {
        merchant_key: pm.merchant_key,
        first_name: 'Live',
        email: 'live@example.com',
        phone_number: '+14155550123',
      },
    });
    const before = await tableCounts(p.core);
    const res = await p.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${add.body.data.customer_id}`,
      auth: pm.auth,
      json: { merchant_key: pm.merchant_key },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      result: false,
      code: 'messaging_unavailable',
      message:
        'This server has no SMS and email transport configured: the card request could not be sent, and nothing was created.',
    });
    expect(await tableCounts(p.core)).toEqual(before);
  });
});

describe('production with email only', () => {
  let p: TestServer;
  let pm: TestMerchant;
  beforeAll(async () => {
    p = await startTestServer({ env: 'production', messaging: { email: true, sms: false } });
    const c = await createCredentials(p.core.ctx);
    pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
  });
  afterAll(() => p.close());

  it('request-card says it went by email and not by SMS; only the email is queued', async () => {
    const add = await p.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: pm.auth,
      json: {
        merchant_key: pm.merchant_key,
        first_name: 'Live',
        email: 'live@example.com',
        phone_number: '+14155550123',
      },
    });
    const id = add.body.data.customer_id;
    const res = await p.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${id}`,
      auth: pm.auth,
      json: { merchant_key: pm.merchant_key },
    });
    expect([res.status, res.body]).toEqual([
      200,
      {
        result: true,
        message:
          'Card request sent to the customer by email. Not sent by SMS: this server has no SMS transport configured.',
      },
    ]);
    const r = await p.core.ctx.db.execute(sql`select channel, status from messages`);
    expect((r as unknown as { rows: unknown[] }).rows).toEqual([{ channel: 'email', status: 'pending' }]);
  });
});
