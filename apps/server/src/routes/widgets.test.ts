import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { rows } from '../testing/payments.js';
import { sql } from 'drizzle-orm';
import { createCredentials } from '@remit/core';

/** `GET /api/v1/widgets` and `PUT /api/v1/widgets/{id}`: the merchant's widget settings. */

let s: TestServer;
let m: TestMerchant;
let sibling: TestMerchant;
let stranger: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  sibling = await newMerchant(s, { auth: m.auth, business_name: 'Sibling Shop' });
  stranger = await newMerchant(s, { business_name: 'Stranger Shop' });
});
afterAll(() => s.close());

const list = (who: TestMerchant = m, auth = who.auth) =>
  s.http({ method: 'GET', path: '/api/v1/widgets', auth, json: { merchant_key: who.merchant_key } });
const put = (id: string, json: Record<string, unknown>, who: TestMerchant = m, auth = who.auth) =>
  s.http({ method: 'PUT', path: `/api/v1/widgets/${id}`, auth, json: { merchant_key: who.merchant_key, ...json } });
const widgetId = async (who: TestMerchant = m) => (await list(who)).body.data[0].id as string;
const widgetRow = async (id: string) => (await rows(s, sql`select * from widgets where id = ${id}`))[0];

describe('GET /widgets', () => {
  it('makes the one widget of the merchant with defaults on first read, and answers the same one after', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: true,
      message: 'Widgets.',
      data: [
        {
          id: expect.stringMatching(/^wdg_[0-9A-Za-z]{20}$/),
          merchant_id: m.merchant_id,
          allowed_origins: [],
          button_text: 'Pay now',
          theme: { primary_color: null },
          appearance: { theme: 'default', variables: {} },
          logo_url: null,
          request_payment_enabled: true,
          completed_transactions_enabled: true,
          completed_transactions_scope: 'widget',
          sms_countries: ['US', 'CA'],
          max_amount: null,
          created_date: expect.any(String),
          updated_date: expect.any(String),
        },
      ],
    });
    const again = await list();
    expect(again.body.data[0].id).toBe(res.body.data[0].id);
    const [n] = await rows(s, sql`select count(*)::int as c from widgets where merchant_id = ${m.merchant_id}`);
    expect(n!.c).toBe(1);
  });

  it('takes merchant_key from the query string too', async () => {
    const res = await s.http({ method: 'GET', path: `/api/v1/widgets?merchant_key=${m.merchant_key}`, auth: m.auth });
    expect(res.status).toBe(200);
    expect(res.body.data[0].merchant_id).toBe(m.merchant_id);
  });

  it('401 for a merchant_key of another client; 400 without one', async () => {
    expect((await list(stranger, m.auth)).status).toBe(401);
    const res = await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('merchant_key');
  });
});

describe('PUT /widgets/{id}', () => {
  it('sets every field; absent fields stay; null clears', async () => {
    const id = await widgetId();
    const res = await put(id, {
      allowed_origins: [
        'https://shop.example.com',
        'https://Shop.Example.com',
        'http://localhost:5173',
        'https://www.example.org:8443',
      ],
      button_text: 'Buy now',
      theme: { primary_color: '#1A56DB' },
      logo_url: 'https://cdn.example.com/logo.png',
      request_payment_enabled: false,
      completed_transactions_enabled: 'false',
      max_amount: '500.00',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      allowed_origins: ['https://shop.example.com', 'http://localhost:5173', 'https://www.example.org:8443'],
      button_text: 'Buy now',
      theme: { primary_color: '#1a56db' },
      logo_url: 'https://cdn.example.com/logo.png',
      request_payment_enabled: false,
      completed_transactions_enabled: false,
      max_amount: '500.00',
    });
    const partial = await put(id, { button_text: 'Pay' });
    expect(partial.body.data).toMatchObject({
      button_text: 'Pay',
      logo_url: 'https://cdn.example.com/logo.png',
      max_amount: '500.00',
    });
    const cleared = await put(id, {
      logo_url: null,
      theme: { primary_color: null },
      max_amount: null,
      allowed_origins: [],
    });
    expect(cleared.body.data).toMatchObject({
      logo_url: null,
      theme: { primary_color: null },
      max_amount: null,
      allowed_origins: [],
      button_text: 'Pay',
    });
    expect((await list()).body.data[0]).toEqual(cleared.body.data);
  });

  it.each([
    ['an origin with a path', { allowed_origins: ['https://shop.example.com/pay'] }, 'allowed_origins.0'],
    ['an origin with a trailing slash', { allowed_origins: ['https://shop.example.com/'] }, 'allowed_origins.0'],
    [
      'plain http to a public host',
      { allowed_origins: ['https://ok.example.com', 'http://shop.example.com'] },
      'allowed_origins.1',
    ],
    ['a wildcard', { allowed_origins: ['*'] }, 'allowed_origins.0'],
    ['a string instead of a list', { allowed_origins: 'https://shop.example.com' }, 'allowed_origins'],
    [
      '21 origins',
      { allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) },
      'allowed_origins',
    ],
    ['a colour name', { theme: { primary_color: 'blue' } }, 'theme.primary_color'],
    ['a short colour', { theme: { primary_color: '#fff' } }, 'theme.primary_color'],
    ['an http logo', { logo_url: 'http://cdn.example.com/logo.png' }, 'logo_url'],
    ['a javascript: logo', { logo_url: 'javascript:alert(1)' }, 'logo_url'],
    ['a huge logo url', { logo_url: `https://cdn.example.com/${'x'.repeat(3000)}` }, 'logo_url'],
    ['empty button text', { button_text: ' ' }, 'button_text'],
    ['long button text', { button_text: 'x'.repeat(41) }, 'button_text'],
    ['a negative max_amount', { max_amount: '-5' }, 'max_amount'],
    ['a flag as text', { request_payment_enabled: 'yes' }, 'request_payment_enabled'],
    ['max_amount over the merchant limit', { max_amount: '1000000.00' }, 'max_amount'],
    ['a country name', { sms_countries: ['Canada'] }, 'sms_countries.0'],
    ['a code of no country', { sms_countries: ['US', 'XX'] }, 'sms_countries.1'],
    ['no country', { sms_countries: [] }, 'sms_countries'],
    ['a scope not offered', { completed_transactions_scope: 'all' }, 'completed_transactions_scope'],
  ])('400 for %s, naming the field, and nothing changes', async (_what, body, path) => {
    const id = await widgetId();
    const before = await widgetRow(id);
    const res = await put(id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      code: expect.any(String),
      errors: expect.arrayContaining([expect.objectContaining({ path })]),
    });
    expect(await widgetRow(id)).toEqual(before);
  });

  it('sets the SMS countries (any case, deduplicated) and the completed-transactions scope', async () => {
    const id = await widgetId();
    const res = await put(id, { sms_countries: ['us', 'GB', 'US', 'mx'], completed_transactions_scope: 'pay_links' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      sms_countries: ['US', 'GB', 'MX'],
      completed_transactions_scope: 'pay_links',
    });
    expect((await widgetRow(id))!.sms_countries).toEqual(['US', 'GB', 'MX']);
    const bad = await put(id, { sms_countries: ['ZZ'] });
    expect(bad.body).toMatchObject({
      code: 'invalid_request',
      errors: [
        {
          path: 'sms_countries.0',
          message: 'is not a country code phones can be placed in (ISO 3166 alpha-2, for example US), not "ZZ"',
        },
      ],
    });
    const back = await put(id, { sms_countries: ['US', 'CA'], completed_transactions_scope: 'widget' });
    expect(back.body.data).toMatchObject({ sms_countries: ['US', 'CA'], completed_transactions_scope: 'widget' });
  });

  it('400 for malformed JSON and a text body', async () => {
    const id = await widgetId();
    const bad = await s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${id}`,
      auth: m.auth,
      raw: '{"merchant_key":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const text = await s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${id}`,
      auth: m.auth,
      raw: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  it("401 for another client's merchant_key; 404 for another merchant's widget (same client) or an unknown id", async () => {
    const id = await widgetId();
    const before = await widgetRow(id);
    expect((await put(id, { button_text: 'Mine' }, stranger, m.auth)).status).toBe(401);
    expect((await put(id, { button_text: 'Mine' }, stranger)).status).toBe(404);
    const viaSibling = await put(id, { button_text: 'Mine' }, sibling);
    expect(viaSibling.status).toBe(404);
    expect(viaSibling.body.code).toBe('widget_not_found');
    expect((await put('wdg_unknown', { button_text: 'Mine' })).status).toBe(404);
    expect(await widgetRow(id)).toEqual(before);
  });

  it('401 without credentials', async () => {
    const res = await s.http({ method: 'PUT', path: '/api/v1/widgets/wdg_x', json: { merchant_key: m.merchant_key } });
    expect(res.status).toBe(401);
  });

  it('production accepts only https origins, localhost included', async () => {
    const prod = await startTestServer({ env: 'production' });
    try {
      const c = await createCredentials(prod.core.ctx);
      const pm = await newMerchant(prod, { auth: [c.client_id, c.secret_key], approve: false });
      const id = (
        await prod.http({
          method: 'GET',
          path: '/api/v1/widgets',
          auth: pm.auth,
          json: { merchant_key: pm.merchant_key },
        })
      ).body.data[0].id;
      const putProd = (allowed_origins: string[]) =>
        prod.http({
          method: 'PUT',
          path: `/api/v1/widgets/${id}`,
          auth: pm.auth,
          json: { merchant_key: pm.merchant_key, allowed_origins },
        });
      const local = await putProd(['http://localhost:5173']);
      expect(local.status).toBe(400);
      expect(local.body.errors).toEqual([{ path: 'allowed_origins.0', message: 'must be https://… in production' }]);
      expect((await putProd(['https://shop.example.com'])).status).toBe(200);
      // What a public key can read starts off in production: the merchant turns it on.
      const [w] = (
        await prod.http({
          method: 'GET',
          path: '/api/v1/widgets',
          auth: pm.auth,
          json: { merchant_key: pm.merchant_key },
        })
      ).body.data;
      expect(w).toMatchObject({
        completed_transactions_enabled: false,
        completed_transactions_scope: 'widget',
        sms_countries: ['US', 'CA'],
        request_payment_enabled: true,
      });
    } finally {
      await prod.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents both widget routes', async () => {
    const doc = (await s.http({ method: 'GET', path: '/api/v1/openapi.json' })).body;
    expect(doc.paths['/api/v1/widgets'].get.responses['200']).toBeDefined();
    const op = doc.paths['/api/v1/widgets/{id}'].put;
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining([
        'merchant_key',
        'allowed_origins',
        'button_text',
        'theme',
        'logo_url',
        'request_payment_enabled',
        'completed_transactions_enabled',
        'max_amount',
      ]),
    );
  });
});
