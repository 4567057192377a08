import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createCredentials, expireWidgetLinks } from '@remit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { charge, newCustomer, rows, TEST_CARD } from '../testing/payments.js';
import { DEFAULT_WIDGET_LIMITS } from '../plugins/widget-limits.js';

/**
 * `/widget/v1` turned against the merchant with only the public key and a forged Origin: SMS to
 * costly numbers, one merchant's requests blocking another's, a flood from a few addresses locking
 * shoppers out, unpaid links piling up in the transactions, and sales read by anyone.
 */

const SHOP = 'https://shop.example';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ trustProxy: true });
});
afterAll(() => s.close());

/** A merchant whose widget answers any origin (sandbox, empty allowed_origins). */
const merchant = () => newMerchant(s);
const w = (m: TestMerchant, method: string, path: string, address: string, json?: unknown) =>
  s.http({
    method,
    path: `/widget/v1${path}${path.includes('?') ? '&' : '?'}public_key=${m.public_key}`,
    json,
    headers: { origin: SHOP, 'x-forwarded-for': address },
  });
const sms = (m: TestMerchant, phone_number: string, address: string) =>
  w(m, 'POST', '/payment-requests', address, { amount: '1.00', phone_number });
const putWidget = async (m: TestMerchant, json: Record<string, unknown>) => {
  const id = (
    await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } })
  ).body.data[0].id;
  const res = await s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key, ...json },
  });
  expect(res.status).toBe(200);
};
const texts = async (m: TestMerchant) =>
  (await rows(s, sql`select recipient from messages where merchant_id = ${m.merchant_id} order by created_at`)).map(
    (r) => r.recipient,
  );
const list = (m: TestMerchant) =>
  s.http({
    method: 'GET',
    path: '/api/v1/merchant/transactions',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, limit: '100' },
  });
const pay = (linkId: string) =>
  s.http({
    method: 'POST',
    path: `/pay/api/links/${linkId}/pay`,
    json: { method: 'card', card: { ...TEST_CARD, name: 'Ada Lovelace' } },
    headers: { 'idempotency-key': randomUUID() },
  });

describe('payment-request SMS go only to the countries the merchant allows', () => {
  it('by default US and Canada only: international networks, unassigned codes, Somalia and +1 Caribbean numbers are 400, nothing sent', async () => {
    const m = await merchant();
    for (const phone of ['+882123456789', '+99912345678', '+252612345678', '+18765550100', '+442071838750']) {
      const res = await sms(m, phone, '10.20.0.1');
      expect(res.status, phone).toBe(400);
      expect(res.body).toMatchObject({
        result: false,
        code: 'phone_country_not_allowed',
        errors: [
          { path: 'phone_number', message: "must be a phone number in US, CA (the widget settings' sms_countries)" },
        ],
      });
    }
    expect(await texts(m)).toEqual([]);
    expect((await sms(m, '(415) 555-0123', '10.20.0.1')).status).toBe(200);
    expect((await sms(m, '+14165550100', '10.20.0.1')).status).toBe(200);
    expect(await texts(m)).toEqual(['+14155550123', '+14165550100']);
  });

  it('the merchant sets the countries in the widget settings', async () => {
    const m = await merchant();
    await putWidget(m, { sms_countries: ['GB'] });
    expect((await sms(m, '+442071838750', '10.20.1.1')).status).toBe(200);
    const us = await sms(m, '+14155550123', '10.20.1.1');
    expect(us.status).toBe(400);
    expect(us.body.errors).toEqual([
      { path: 'phone_number', message: "must be a phone number in GB (the widget settings' sms_countries)" },
    ]);
    expect(await texts(m)).toEqual(['+442071838750']);
  });

  it('a refused number costs no SMS quota: after 12 refused from one address, that address may still text', async () => {
    const m = await merchant();
    for (let i = 0; i < 12; i++) expect((await sms(m, `+88212345${String(1000 + i)}`, '10.20.2.1')).status).toBe(400);
    expect((await sms(m, '+14155550140', '10.20.2.1')).status).toBe(200);
  });
});

describe('the per-phone SMS limit is per merchant', () => {
  it("merchant A's requests to a phone do not keep merchant B from texting it", async () => {
    const [a, b] = [await merchant(), await merchant()];
    const phone = '+14155550199';
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await sms(a, phone, `10.21.0.${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await sms(b, phone, '10.21.1.1');
    expect(other.status).toBe(200);
    expect(await texts(b)).toEqual([phone]);
  });
});

describe('a flood of pay links from a few addresses', () => {
  it('300 pay links from 3 addresses in a second: each address is cut off, and a shopper elsewhere still gets config and a pay link', async () => {
    const m = await merchant();
    const flood = async (address: string) => {
      const out: number[] = [];
      for (let i = 0; i < 100; i++)
        out.push((await w(m, 'POST', '/pay-links', address, { amount: '999999.99' })).status);
      return out;
    };
    const statuses = await Promise.all(['10.30.0.1', '10.30.0.2', '10.30.0.3'].map(flood));
    const limit = DEFAULT_WIDGET_LIMITS.payLinksPerAddress.limit;
    for (const st of statuses) expect(st).toEqual([...Array(limit).fill(200), ...Array(100 - limit).fill(429)]);
    const refused = await w(m, 'POST', '/pay-links', '10.30.0.1', { amount: '1.00' });
    expect(refused.body.message).toContain('widget_pay_links_address');
    const [made] = await rows(s, sql`select count(*)::int as c from pay_links where merchant_id = ${m.merchant_id}`);
    expect(made!.c).toBe(3 * limit);

    const config = await w(m, 'GET', '/config', '10.30.9.9');
    expect(config.status).toBe(200);
    const link = await w(m, 'POST', '/pay-links', '10.30.9.9', { amount: '12.00' });
    expect(link.status).toBe(200);
  });

  it('calls an address is refused do not count on the key: the key limit is reached only by many addresses', async () => {
    const t = await startTestServer({
      trustProxy: true,
      widgetLimits: {
        ...DEFAULT_WIDGET_LIMITS,
        perAddress: { ...DEFAULT_WIDGET_LIMITS.perAddress, limit: 10 },
        perKey: { ...DEFAULT_WIDGET_LIMITS.perKey, limit: 40 },
      },
    });
    try {
      const m = await newMerchant(t);
      const config = (address: string) =>
        t.http({
          method: 'GET',
          path: `/widget/v1/config?public_key=${m.public_key}`,
          headers: { origin: SHOP, 'x-forwarded-for': address },
        });
      const flooded = [];
      for (let i = 0; i < 60; i++) flooded.push((await config('10.31.0.1')).status);
      expect(flooded).toEqual([...Array(10).fill(200), ...Array(50).fill(429)]);
      expect((await config('10.31.0.2')).status).toBe(200);
      // The key's limit still caps many addresses together: 4 full addresses reach it.
      for (const a of ['10.31.0.3', '10.31.0.4']) for (let i = 0; i < 10; i++) await config(a);
      const sixth = [];
      for (let i = 0; i < 10; i++) sixth.push((await config('10.31.0.5')).status);
      expect(sixth).toEqual([...Array(9).fill(200), 429]);
      const last = await config('10.31.0.6');
      expect(last.body.message).toContain('widget_key');
    } finally {
      await t.close();
    }
  });
});

describe('unpaid widget links expire', () => {
  it('a pay-button link lasts 24 hours, a request 7 days; links made with the secret key never expire', async () => {
    const m = await merchant();
    const link = (await w(m, 'POST', '/pay-links', '10.40.0.1', { amount: '3.00' })).body.data.link_id;
    const request = (await sms(m, '+14155550161', '10.40.0.1')).body.data.link_id;
    const api = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '4.00' },
    });
    const apiLink = api.body.data.payment_link.split('/').pop();
    const r = await rows(
      s,
      sql`select id, via_widget, extract(epoch from expires_at - created_at)::int as ttl from pay_links where merchant_id = ${m.merchant_id} order by ttl nulls last`,
    );
    expect(r).toEqual([
      { id: link, via_widget: true, ttl: 24 * 3600 },
      { id: request, via_widget: true, ttl: 7 * 24 * 3600 },
      { id: apiLink, via_widget: false, ttl: null },
    ]);
  });

  it('past 24 hours the link cannot be paid (410 link_expired), and the sweep drops its pending sale from the transactions', async () => {
    const m = await merchant();
    const stale = (await w(m, 'POST', '/pay-links', '10.41.0.1', { amount: '999999.99' })).body.data.link_id;
    const paid = (await w(m, 'POST', '/pay-links', '10.41.0.1', { amount: '8.00' })).body.data.link_id;
    expect((await pay(paid)).status).toBe(200);
    const api = (
      await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '4.00' },
      })
    ).body.data;
    const before = await list(m);
    expect(before.body.total).toBe(3);
    const [staleSale] = await rows(s, sql`select sales_id from pay_links where id = ${stale}`);
    expect(before.body.data.map((t: { transaction_id: string }) => t.transaction_id)).toContain(staleSale!.sales_id);

    // Not yet: a minute short of a day it is still payable (and the sweep leaves it).
    await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, hours: 23.9 },
    });
    await expireWidgetLinks(s.core.ctx);
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${stale}` })).status).toBe(200);

    await s.http({
      method: 'POST',
      path: '/sandbox/advance-clock',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, hours: 0.2 },
    });
    // Refused at once, before any sweep ran.
    const view = await s.http({ method: 'GET', path: `/pay/api/links/${stale}` });
    expect(view.status).toBe(410);
    expect(view.body).toMatchObject({
      result: false,
      code: 'link_expired',
      message: 'This payment link has expired; ask the merchant for a new one.',
    });
    const attempt = await pay(stale);
    expect(attempt.status).toBe(410);
    expect(attempt.body.code).toBe('link_expired');
    expect((await s.http({ method: 'GET', path: `/pay/${stale}` })).status).toBe(410);

    expect(await expireWidgetLinks(s.core.ctx)).toBeGreaterThanOrEqual(1);
    const after = await list(m);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(2);
    const ids = after.body.data.map((t: { transaction_id: string }) => t.transaction_id);
    expect(ids).not.toContain(staleSale!.sales_id);
    expect(ids).toContain(api.sales_id);
    const [link] = await rows(s, sql`select status from pay_links where id = ${stale}`);
    expect(link!.status).toBe('expired');
    expect((await pay(stale)).body.code).toBe('link_expired');
    // A paid link keeps its sale and its receipt; the secret key's link is still payable.
    const receipt = await s.http({ method: 'GET', path: `/pay/api/links/${paid}` });
    expect(receipt.status).toBe(200);
    expect(receipt.body.status).toBe('paid');
    expect((await pay(api.order_id)).status).toBe(200);
  });
});

describe('what a public key can read: GET /widget/v1/transactions', () => {
  it("lists sales paid through the widgets' links, never charges to stored customers; pay_links adds the merchant's own pay links", async () => {
    const m = await merchant();
    const customer = await newCustomer(s, m);
    const charged = await charge(s, m, customer, '77.00');
    const widgetLink = (await w(m, 'POST', '/pay-links', '10.50.0.1', { amount: '11.00' })).body.data.link_id;
    expect((await pay(widgetLink)).status).toBe(200);
    const api = (
      await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '22.00' },
      })
    ).body.data;
    expect((await pay(api.order_id)).status).toBe(200);

    const shown = async () =>
      (await w(m, 'GET', '/transactions', '10.50.0.1')).body.data.data.map((t: { amount: string }) => t.amount);
    expect(await shown()).toEqual(['11.00']);
    const body = (await w(m, 'GET', '/transactions', '10.50.0.1')).text;
    expect(body).not.toContain(charged);
    await putWidget(m, { completed_transactions_scope: 'pay_links' });
    expect(await shown()).toEqual(['22.00', '11.00']);
  });

  it('in production the widget is off until the merchant turns it on (403 widget_disabled)', async () => {
    const p = await startTestServer({ env: 'production' });
    try {
      const c = await createCredentials(p.core.ctx);
      const pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
      const id = (
        await p.http({ method: 'GET', path: '/api/v1/widgets', auth: pm.auth, json: { merchant_key: pm.merchant_key } })
      ).body.data[0].id;
      await p.http({
        method: 'PUT',
        path: `/api/v1/widgets/${id}`,
        auth: pm.auth,
        json: { merchant_key: pm.merchant_key, allowed_origins: [SHOP] },
      });
      const read = () =>
        p.http({
          method: 'GET',
          path: `/widget/v1/transactions?public_key=${pm.public_key}`,
          headers: { origin: SHOP },
        });
      const off = await read();
      expect(off.status).toBe(403);
      expect(off.body).toMatchObject({
        code: 'widget_disabled',
        message: expect.stringContaining('completed_transactions_enabled'),
      });
      const config = await p.http({
        method: 'GET',
        path: `/widget/v1/config?public_key=${pm.public_key}`,
        headers: { origin: SHOP },
      });
      expect(config.body.data.completed_transactions_enabled).toBe(false);
      await p.http({
        method: 'PUT',
        path: `/api/v1/widgets/${id}`,
        auth: pm.auth,
        json: { merchant_key: pm.merchant_key, completed_transactions_enabled: true },
      });
      const on = await read();
      expect(on.status).toBe(200);
      expect(on.body.data.data).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
