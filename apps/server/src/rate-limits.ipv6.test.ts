import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateRule } from '@remit/core';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from './testing/harness.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.js';
import { DEFAULT_WIDGET_LIMITS, type WidgetLimits } from './plugins/widget-limits.js';

/**
 * Per-address limits count an IPv6 client by its /64 (one subscriber's block: one machine can use
 * billions of its addresses) and an IPv4-mapped address as its IPv4 address. Through a trusted
 * proxy, as in production: the client address is X-Forwarded-For.
 */

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(rateLimits: Partial<RateLimits> = {}, widgetLimits?: WidgetLimits) {
  const s = await startTestServer({ trustProxy: true, rateLimits, widgetLimits });
  servers.push(s);
  return s;
}

/** The n-th address of one /64 (each written differently from the last, as a client may). */
const inBlock = (block: string, n: number) =>
  `${block}:${(n + 1).toString(16)}:${((n * 7919) % 65536).toString(16)}:0:${n % 3 === 0 ? 'ABCD' : 'abcd'}`;
const BLOCK = '2001:db8:4:5';
const OTHER = '2001:db8:4:6';
const HOUR = 3_600_000;
const rule = (name: string, limit: number, windowMs = HOUR): RateRule => ({ name, limit, windowMs });

const tally = (statuses: number[]) => {
  const t: Record<number, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
};

describe('card testing from many addresses of one /64', () => {
  const YEAR = new Date().getUTCFullYear() + 2;
  const card = {
    number: '4000000000000002',
    exp_month: 12,
    exp_year: YEAR,
    cvc: '123',
    name: 'Card Tester',
    zip: '94105',
  };

  it('120 addresses across 12 links: the default budget (30 per 10 minutes) holds, then 429, nothing written; another /64 goes on', async () => {
    const s = await server({ payCardsPerAddress: DEFAULT_RATE_LIMITS.payCardsPerAddress });
    const m = await newMerchant(s);
    const links: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '1.00' },
      });
      links.push(String(res.body.data.payment_link).split('/').pop()!);
    }
    const payFrom = (address: string, link: string) =>
      s.http({
        method: 'POST',
        path: `/pay/api/links/${link}/pay`,
        json: { method: 'card', card },
        headers: { 'x-forwarded-for': address, 'idempotency-key': randomUUID() },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await payFrom(inBlock(BLOCK, i), links[i % 12]!)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(402));
    expect(tally(statuses.slice(30))).toEqual({ 429: 90 });

    const before = await tableCounts(s.core);
    const refused = await payFrom(inBlock(BLOCK, 500), links[0]!);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Too many card payment attempts from this address\./),
    });
    expect(await tableCounts(s.core)).toEqual(before);
    expect((await payFrom(inBlock(OTHER, 0), links[1]!)).status).toBe(402);
  });
});

describe('failed authentications from many addresses of one /64', () => {
  const list = (s: TestServer, auth: [string, string], address: string) =>
    s.http({ method: 'GET', path: '/api/v1/merchant', auth, headers: { 'x-forwarded-for': address } });
  it('200 wrong secrets from 20 addresses: 401 up to the default 10 per client id, then 429; the right secret from another /64 goes on', async () => {
    const s = await server({
      authFailuresPerClientAddress: DEFAULT_RATE_LIMITS.authFailuresPerClientAddress,
      authFailuresPerAddress: DEFAULT_RATE_LIMITS.authFailuresPerAddress,
    });
    const [id, secret] = await s.credentials();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await list(s, [id, `sk_test_wrong${i}`], inBlock(BLOCK, i % 20))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(tally(statuses.slice(10))).toEqual({ 429: 190 });
    // Even the right secret from the block learns nothing; from another /64 it works.
    expect((await list(s, [id, secret], inBlock(BLOCK, 99))).status).toBe(429);
    expect((await list(s, [id, secret], inBlock(OTHER, 1))).status).toBe(200);
  });

  it('guesses at many client ids from 20 addresses of one /64: 401 up to the default 30, then 429', async () => {
    const s = await server({
      authFailuresPerClientAddress: DEFAULT_RATE_LIMITS.authFailuresPerClientAddress,
      authFailuresPerAddress: DEFAULT_RATE_LIMITS.authFailuresPerAddress,
    });
    const good = await s.credentials();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await list(s, [`cl_guess${i}`, 'sk_test_nope'], inBlock(BLOCK, i % 20))).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(tally(statuses.slice(30))).toEqual({ 429: 30 });
    expect((await list(s, good, inBlock(BLOCK, 7))).status).toBe(429);
    expect((await list(s, good, inBlock(OTHER, 7))).status).toBe(200);
  });

  it('a portal sign-in counts by the /64 too', async () => {
    const s = await server({ authFailuresPerAddress: rule('auth_fail_address', 3) });
    const [id, secret] = await s.credentials();
    const signIn = (secret_key: string, address: string) =>
      s.http({
        method: 'POST',
        path: '/portal/api/session',
        json: { client_id: id, secret_key },
        headers: { origin: s.url, 'x-forwarded-for': address },
      });
    for (let i = 0; i < 3; i++) expect((await signIn(`sk_test_${'y'.repeat(32)}`, inBlock(BLOCK, i))).status).toBe(401);
    expect((await signIn(secret, inBlock(BLOCK, 3))).status).toBe(429);
    expect((await signIn(secret, inBlock(OTHER, 3))).status).toBe(201);
  });

  it('an IPv4-mapped IPv6 address is its IPv4 address: both spellings fill one counter', async () => {
    const s = await server({ authFailuresPerAddress: rule('auth_fail_address', 4) });
    const good = await s.credentials();
    for (const address of ['203.0.113.7', '::ffff:203.0.113.7', '::FFFF:cb00:7107', '0:0:0:0:0:ffff:203.0.113.7']) {
      expect((await list(s, ['cl_guess', 'sk_test_nope'], address)).status, address).toBe(401);
    }
    expect((await list(s, good, '203.0.113.7')).status).toBe(429);
    expect((await list(s, good, '::ffff:203.0.113.7')).status).toBe(429);
    expect((await list(s, good, '::ffff:203.0.113.8')).status).toBe(200);
  });
});

describe('credentials, pay page calls and hosted pages per /64', () => {
  it('POST /portal/api/credentials: the default 20 per hour across one /64, then 429 and no client made', async () => {
    const s = await server({ credentialsPerAddress: DEFAULT_RATE_LIMITS.credentialsPerAddress });
    const create = (address: string) =>
      s.http({ method: 'POST', path: '/portal/api/credentials', headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 20; i++) expect((await create(inBlock(BLOCK, i))).status).toBe(201);
    const before = await tableCounts(s.core);
    const refused = await create(inBlock(BLOCK, 20));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many credentials created from this address\./);
    expect(await tableCounts(s.core)).toEqual(before);
    expect((await create(inBlock(OTHER, 0))).status).toBe(201);
  });

  it('pay page calls (/pay/api) and hosted pages (GET /pay/{id}) count the /64', async () => {
    const s = await server({ payPerAddress: rule('pay_address', 3), payPagesPerAddress: rule('pay_pages_address', 3) });
    const m = await newMerchant(s);
    const made = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '1.00' },
    });
    const id = String(made.body.data.payment_link).split('/').pop()!;
    const get = (path: string, address: string) =>
      s.http({ method: 'GET', path, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 3; i++) expect((await get(`/pay/api/links/${id}`, inBlock(BLOCK, i))).status).toBe(200);
    expect((await get(`/pay/api/links/${id}`, inBlock(BLOCK, 3))).status).toBe(429);
    expect((await get(`/pay/api/links/${id}`, inBlock(OTHER, 3))).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await get(`/pay/${id}`, inBlock(BLOCK, 10 + i))).status).not.toBe(429);
    expect((await get(`/pay/${id}`, inBlock(BLOCK, 13))).status).toBe(429);
    expect((await get(`/pay/${id}`, inBlock(OTHER, 13))).status).not.toBe(429);
  });
});

describe('the widget backend per /64', () => {
  const SHOP = 'https://shop.example';
  const widget = (s: TestServer, m: TestMerchant, method: string, path: string, address: string, json?: unknown) =>
    s.http({
      method,
      path: `/widget/v1${path}?public_key=${m.public_key}`,
      json,
      headers: { origin: SHOP, 'x-forwarded-for': address },
    });

  it('every call, pay links and SMS: each address rule counts one /64 as one client', async () => {
    const s = await server(
      {},
      {
        ...DEFAULT_WIDGET_LIMITS,
        perAddress: rule('widget_address', 8, 60_000),
        payLinksPerAddress: rule('widget_pay_links_address', 2, 60_000),
        smsPerAddress: rule('widget_sms_address', 2),
      },
    );
    const m = await newMerchant(s);

    // Pay links: 2 per address.
    for (let i = 0; i < 2; i++)
      expect((await widget(s, m, 'POST', '/pay-links', inBlock(BLOCK, i), { amount: '1.00' })).status).toBe(200);
    const links = await widget(s, m, 'POST', '/pay-links', inBlock(BLOCK, 2), { amount: '1.00' });
    expect(links.status).toBe(429);
    expect(links.body.message).toContain('widget_pay_links_address');
    expect((await widget(s, m, 'POST', '/pay-links', inBlock(OTHER, 2), { amount: '1.00' })).status).toBe(200);

    // SMS: 2 per address, each to another phone (the per-phone rule never comes into it).
    for (let i = 0; i < 2; i++)
      expect(
        (
          await widget(s, m, 'POST', '/payment-requests', inBlock(BLOCK, 20 + i), {
            amount: '1.00',
            phone_number: `+1415555020${i}`,
          })
        ).status,
      ).toBe(200);
    const sms = await widget(s, m, 'POST', '/payment-requests', inBlock(BLOCK, 22), {
      amount: '1.00',
      phone_number: '+14155550209',
    });
    expect(sms.status).toBe(429);
    expect(sms.body.message).toContain('widget_sms_address');
    expect(
      (
        await widget(s, m, 'POST', '/payment-requests', inBlock(OTHER, 22), {
          amount: '1.00',
          phone_number: '+14155550208',
        })
      ).status,
    ).toBe(200);

    // Every call: the block has made 5 (2 pay links and 3 SMS calls; the refused pay link counted no further), so 3 more, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await widget(s, m, 'GET', '/config', inBlock(BLOCK, 40 + i))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await widget(s, m, 'GET', '/config', inBlock('2001:db8:9:9', 0))).status).toBe(200);
  });
});
