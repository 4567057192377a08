import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createCredentials } from '@remit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { rows } from '../testing/payments.js';

/** `/widget/v1`: the widget backend, authorized by the public key and the page's Origin. */

const SHOP = 'https://shop.example';
const YEAR = new Date().getUTCFullYear() + 3;

let s: TestServer;
let m: TestMerchant;
let open: TestMerchant; // keeps the default empty allowed_origins
beforeAll(async () => {
  s = await startTestServer({ trustProxy: true });
  m = await newMerchant(s);
  open = await newMerchant(s, { business_name: 'Open Shop' });
  const id = (
    await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } })
  ).body.data[0].id;
  const put = await s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key, allowed_origins: [SHOP], max_amount: '500.00' },
  });
  expect(put.status).toBe(200);
});
afterAll(() => s.close());

type Call = {
  method?: string;
  path: string;
  key?: string;
  origin?: string | null;
  json?: unknown;
  headers?: Record<string, string>;
};
const w = ({ method = 'GET', path, key = m.public_key, origin = SHOP, json, headers = {} }: Call) =>
  s.http({
    method,
    path: `/widget/v1${path}${path.includes('?') ? '&' : '?'}public_key=${encodeURIComponent(key)}`,
    json,
    headers: { ...(origin ? { origin } : {}), ...headers },
  });

describe('auth: public key + Origin', () => {
  it('answers the settings a page may see, from an allowed origin, with CORS for that origin', async () => {
    const res = await w({ path: '/config' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      message: 'Widget settings.',
      data: {
        button_text: 'Pay now',
        theme: { primary_color: null },
        request_payment_enabled: true,
        completed_transactions_enabled: true,
        max_amount: '500.00',
        appearance_css: '',
        appearance_warning: null,
        environment: 'sandbox',
      },
    });
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('an origin not allowed, or none, is 403 origin_not_allowed, without CORS headers', async () => {
    for (const origin of ['https://evil.example', null, 'null']) {
      const res = await w({ path: '/config', origin });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        result: false,
        code: 'origin_not_allowed',
        message: expect.stringContaining('allowed_origins'),
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a preflight gets CORS only for an allowed origin', async () => {
    const pre = (origin: string) =>
      s.http({
        method: 'OPTIONS',
        path: `/widget/v1/pay-links?public_key=${m.public_key}`,
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const good = await pre(SHOP);
    expect(good.status).toBe(204);
    expect(good.headers['access-control-allow-origin']).toBe(SHOP);
    expect(good.headers['access-control-allow-methods']).toBe('GET, POST');
    const bad = await pre('https://evil.example');
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an empty allowed_origins list is any origin in sandbox', async () => {
    const res = await w({ path: '/config', key: open.public_key, origin: 'https://anywhere.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://anywhere.example');
  });

  it('an unknown key, a secret key, or no key is 401 invalid_public_key', async () => {
    for (const key of ['pk_test_nope', m.merchant_key, '']) {
      const res = await w({ path: '/config', key });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ result: false, code: 'invalid_public_key' });
    }
  });

  it('a public key opens nothing else: the merchant API refuses it', async () => {
    const asMerchantKey = await s.http({
      method: 'GET',
      path: '/api/v1/widgets',
      auth: m.auth,
      json: { merchant_key: m.public_key },
    });
    expect(asMerchantKey.status).toBe(401);
    const noBasic = await s.http({
      method: 'GET',
      path: `/api/v1/widgets?merchant_key=${m.public_key}`,
      headers: { origin: SHOP },
    });
    expect(noBasic.status).toBe(401);
    const asBasic = await s.http({
      method: 'GET',
      path: '/api/v1/widgets',
      auth: [m.public_key, m.public_key],
      json: { merchant_key: m.public_key },
    });
    expect(asBasic.status).toBe(401);
    const other = await w({ path: '/../api/v1/transactions' });
    expect([401, 404]).toContain(other.status);
    const notARoute = await w({ method: 'POST', path: '/refunds', json: {} });
    expect(notARoute.status).toBe(404);
  });

  it('a public key opens nothing else, however it is presented: every other authenticated route is 401', async () => {
    const pk = m.public_key;
    const routes: Array<[string, string]> = [
      ['GET', '/api/v1/merchant'],
      ['GET', '/api/v1/merchant/transactions'],
      ['POST', '/api/v1/order/sales-return'],
      ['POST', '/api/v1/customers/charge/x'],
      ['GET', '/sandbox/messages'],
    ];
    const ways: Array<{ name: string; auth?: [string, string]; headers?: Record<string, string>; query?: string }> = [
      { name: 'as HTTP Basic user and secret', auth: [pk, pk] },
      { name: 'as the Basic secret of the right client', auth: [m.auth[0], pk] },
      { name: 'as a bearer token', headers: { authorization: `Bearer ${pk}` } },
      { name: 'as api_key', headers: { api_key: pk } },
      { name: 'in the query, as the widgets send it', query: `public_key=${pk}` },
    ];
    for (const [method, path] of routes) {
      for (const way of ways) {
        const res = await s.http({
          method,
          path: way.query ? `${path}?${way.query}` : path,
          auth: way.auth,
          headers: { origin: SHOP, ...way.headers },
          json: method === 'POST' ? { merchant_key: pk, amount: 1 } : undefined,
        });
        expect(res.status, `${method} ${path} ${way.name}`).toBe(401);
      }
    }
  });

  it('the OpenAPI document describes the widget settings (GET /widgets, PUT /widgets/{id}) and the widget backend', async () => {
    const doc = (await s.http({ method: 'GET', path: '/api/v1/openapi.json' })).body;
    const list = doc.paths['/api/v1/widgets']?.get;
    const put = doc.paths['/api/v1/widgets/{id}']?.put;
    expect(list, 'GET /widgets').toBeDefined();
    expect(put, 'PUT /widgets/{id}').toBeDefined();
    const body = put.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining([
        'merchant_key',
        'allowed_origins',
        'button_text',
        'theme',
        'request_payment_enabled',
        'completed_transactions_enabled',
        'max_amount',
      ]),
    );
    expect(put.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]));
    for (const [method, path] of [
      ['get', '/widget/v1/config'],
      ['post', '/widget/v1/pay-links'],
      ['post', '/widget/v1/payment-requests'],
      ['get', '/widget/v1/transactions'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '429']));
    }
    // The SMS limits the document states are the configured ones.
    expect(doc.paths['/widget/v1/payment-requests'].post.description).toContain('At most 3 per 1 hour per phone');
  });
});

describe('POST /widget/v1/pay-links', () => {
  it('takes a form-encoded body, as the widgets send it (a CORS simple request: no preflight round trip)', async () => {
    const form = await s.http({
      method: 'POST',
      path: `/widget/v1/pay-links?public_key=${m.public_key}`,
      raw: 'amount=7.25',
      headers: { origin: SHOP, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data.amount).toBe('7.25');
    expect(form.headers['access-control-allow-origin']).toBe(SHOP);
    const sms = await s.http({
      method: 'POST',
      path: `/widget/v1/payment-requests?public_key=${m.public_key}`,
      raw: new URLSearchParams({ amount: '3', phone_number: '(415) 555-0177' }).toString(),
      headers: {
        origin: SHOP,
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
        'x-forwarded-for': '10.3.3.3',
      },
    });
    expect(sms.status).toBe(200);
    expect(sms.body.data.phone_last_four).toBe('0177');
    // From an origin not allowed, a simple request is refused by the server itself, nothing made.
    const before = await rows(s, sql`select count(*)::int as c from pay_links where merchant_id = ${m.merchant_id}`);
    const evil = await s.http({
      method: 'POST',
      path: `/widget/v1/pay-links?public_key=${m.public_key}`,
      raw: 'amount=7.25',
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(evil.status).toBe(403);
    expect(await rows(s, sql`select count(*)::int as c from pay_links where merchant_id = ${m.merchant_id}`)).toEqual(
      before,
    );
  });

  it("opens a link for the amount and records the page's origin on it", async () => {
    const res = await w({ method: 'POST', path: '/pay-links', json: { amount: 12.5 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      message: 'Pay link created.',
      data: {
        link_id: expect.stringMatching(/^ord_/),
        pay_link: `${s.url}/pay/${res.body.data.link_id}`,
        amount: '12.50',
      },
    });
    const [link] = await rows(
      s,
      sql`select embed_origin, amount_cents, merchant_id from pay_links where id = ${res.body.data.link_id}`,
    );
    expect(link).toMatchObject({ embed_origin: SHOP, merchant_id: m.merchant_id });
    expect(Number(link!.amount_cents)).toBe(1250);
  });

  it("refuses an amount over the widget's max_amount, and bad amounts, writing nothing", async () => {
    const [before] = await rows(s, sql`select count(*)::int as c from pay_links`);
    const over = await w({ method: 'POST', path: '/pay-links', json: { amount: '500.01' } });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      code: 'amount_over_limit',
      errors: [{ path: 'amount', message: "must be at most 500.00, the widget's max_amount" }],
    });
    for (const amount of [0, -1, 'ten', 1.234, null]) {
      const res = await w({ method: 'POST', path: '/pay-links', json: { amount } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('amount');
    }
    const [after] = await rows(s, sql`select count(*)::int as c from pay_links`);
    expect(after!.c).toBe(before!.c);
  });
});

describe('GET /widget/v1/transactions', () => {
  it('lists paid links: date, amount, brand, last four, status, and nothing about the customer', async () => {
    const empty = await w({ path: '/transactions', key: open.public_key });
    expect(empty.body.data).toEqual({ data: [], page: 0, page_size: 10, has_more: false });

    const link = (await w({ method: 'POST', path: '/pay-links', json: { amount: '20.00' } })).body.data.link_id;
    const paid = await s.http({
      method: 'POST',
      path: `/pay/api/links/${link}/pay`,
      json: {
        method: 'card',
        card: {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: YEAR,
          cvc: '123',
          name: 'Ada Lovelace',
          zip: '94105',
        },
      },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(paid.status).toBe(200);
    const res = await w({ path: '/transactions' });
    expect(res.status).toBe(200);
    expect(res.body.data.data[0]).toEqual({
      transaction_id: expect.stringMatching(/^txn_/),
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      amount: '20.00',
      brand: 'Visa',
      last_four: '4242',
      status: 'completed',
    });
    expect(res.text).not.toContain('Ada');
    expect(res.body.data).toMatchObject({ page: 0, page_size: 10, has_more: false });
    const bad = await w({ path: '/transactions?page=-1' });
    expect(bad.status).toBe(400);
  });
});

describe('POST /widget/v1/payment-requests', () => {
  it('sends the SMS to a US phone (as E.164) with the pay link', async () => {
    const res = await w({
      method: 'POST',
      path: '/payment-requests',
      json: { amount: '15', phone_number: '(415) 555-0123' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      message: 'Payment request sent.',
      data: { status: 'sent', link_id: expect.stringMatching(/^ord_/), amount: '15.00', phone_last_four: '0123' },
    });
    const msgs = await rows(
      s,
      sql`select channel, recipient, body_text, pay_link_id from messages where pay_link_id = ${res.body.data.link_id}`,
    );
    expect(msgs).toEqual([
      {
        channel: 'sms',
        recipient: '+14155550123',
        body_text: expect.stringContaining(`/pay/${res.body.data.link_id}`),
        pay_link_id: res.body.data.link_id,
      },
    ]);
  });

  it('refuses a bad phone with the field and the rule', async () => {
    const res = await w({ method: 'POST', path: '/payment-requests', json: { amount: '15', phone_number: '12345' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'phone_number', message: 'must be a 10-digit US phone number or E.164 (for example +14155550100)' },
    ]);
  });

  it('at most 3 per phone an hour: the 4th is 429 with Retry-After', async () => {
    const phone = '+16475550188';
    const statuses = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await w({
        method: 'POST',
        path: '/payment-requests',
        json: { amount: '1', phone_number: phone },
        headers: { 'x-forwarded-for': `10.0.1.${i}` },
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body).toMatchObject({
      result: false,
      code: 'rate_limited',
      message: expect.stringContaining('widget_sms_phone'),
    });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(3000);
    expect(last!.headers['access-control-expose-headers']).toBe('retry-after');
    const [n] = await rows(s, sql`select count(*)::int as c from messages where recipient = ${phone}`);
    expect(n!.c).toBe(3);
  });

  it('at most 10 an hour per client address, whatever the phone', async () => {
    const statuses = [];
    for (let i = 0; i < 11; i++) {
      const res = await w({
        method: 'POST',
        path: '/payment-requests',
        json: { amount: '1', phone_number: `+1415555${String(1000 + i)}` },
        headers: { 'x-forwarded-for': '10.9.9.9' },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.message).toContain('widget_sms_address');
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });

  it('at most 50 an hour per key, whatever the phone and address', async () => {
    const [sent] = await rows(s, sql`select count(*)::int as c from messages where merchant_id = ${m.merchant_id}`);
    let status = 0;
    let i = 0;
    for (; i < 60 && status !== 429; i++) {
      const res = await w({
        method: 'POST',
        path: '/payment-requests',
        json: { amount: '1', phone_number: `+1415556${String(1000 + i)}` },
        headers: { 'x-forwarded-for': `10.2.${i}.1` },
      });
      status = res.status;
      if (status === 429) expect(res.body.message).toContain('widget_sms_key');
    }
    expect(status).toBe(429);
    expect(sent!.c + i - 1).toBe(50);
  });

  it('is refused when the merchant turned the widget off', async () => {
    const id = (
      await s.http({
        method: 'GET',
        path: '/api/v1/widgets',
        auth: open.auth,
        json: { merchant_key: open.merchant_key },
      })
    ).body.data[0].id;
    await s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${id}`,
      auth: open.auth,
      json: { merchant_key: open.merchant_key, request_payment_enabled: false },
    });
    const res = await w({
      method: 'POST',
      path: '/payment-requests',
      key: open.public_key,
      json: { amount: '1', phone_number: '+14155550100' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'widget_disabled' });
  });
});

describe('production', () => {
  it('an empty allowed_origins list allows no origin', async () => {
    const p = await startTestServer({ env: 'production' });
    try {
      const c = await createCredentials(p.core.ctx);
      const pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
      const config = () =>
        p.http({ method: 'GET', path: `/widget/v1/config?public_key=${pm.public_key}`, headers: { origin: SHOP } });
      const res = await config();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('origin_not_allowed');
      const id = (
        await p.http({ method: 'GET', path: '/api/v1/widgets', auth: pm.auth, json: { merchant_key: pm.merchant_key } })
      ).body.data[0].id;
      await p.http({
        method: 'PUT',
        path: `/api/v1/widgets/${id}`,
        auth: pm.auth,
        json: { merchant_key: pm.merchant_key, allowed_origins: [SHOP] },
      });
      const allowed = await config();
      expect(allowed.status).toBe(200);
      expect(allowed.body.data.environment).toBe('production');
    } finally {
      await p.close();
    }
  });
});

describe('scripts', () => {
  it('the loader is cached briefly; a missing chunk is 404', async () => {
    const res = await s.http({ method: 'GET', path: '/js/dynamic-launch.js' });
    if (res.status === 200) {
      expect(res.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=60');
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    } else {
      expect(res.status).toBe(503);
    }
    expect((await s.http({ method: 'GET', path: '/js/widgets.nope0000.js' })).status).toBe(404);
    expect((await s.http({ method: 'GET', path: '/js/..%2Fpackage.json' })).status).toBe(404);
  });
});
