import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RateRule } from '@remit/core';
import { newMerchant } from './testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from './testing/harness.js';
import { rows } from './testing/payments.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.js';
import { writePayFixture } from './testing/pay-dist.js';

/**
 * Each limit over HTTP against the real server: the hit past the limit answers 429 in the spec's
 * envelope with `Retry-After`, nothing is done for it, and the count starts again after the window.
 */

const HOUR = 3_600_000;
const rule = (name: string, limit: number, windowMs = HOUR): RateRule => ({ name, limit, windowMs });

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
async function server(rateLimits: Partial<RateLimits>, opts: { trustProxy?: boolean; payDir?: string } = {}) {
  const s = await startTestServer({ rateLimits, ...opts });
  servers.push(s);
  return s;
}

function expect429(
  res: { status: number; headers: Record<string, unknown>; body: any },
  message: RegExp,
  maxSeconds = HOUR / 1000,
) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    result: false,
    message: expect.stringMatching(message),
    code: 'rate_limited',
    request_id: expect.any(String),
  });
  const retry = Number(res.headers['retry-after']);
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(maxSeconds);
  expect(res.body.message).toContain(`Try again in ${retry} second`);
}

const listMerchants = (s: TestServer, auth: [string, string]) =>
  s.http({ method: 'GET', path: '/api/v1/merchant', auth });

describe('failed authentication', () => {
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const listFrom = (s: TestServer, auth: [string, string], address: string) =>
    s.http({ method: 'GET', path: '/api/v1/merchant', auth, headers: from(address) });

  it('a guesser who knows a client id cannot lock the client out: the guesser gets 429, the client at another address 200', async () => {
    // The default limits (10 per client id and address, 30 per address), as a server starts with.
    const s = await startTestServer({
      trustProxy: true,
      rateLimits: {
        authFailuresPerClientAddress: DEFAULT_RATE_LIMITS.authFailuresPerClientAddress,
        authFailuresPerAddress: DEFAULT_RATE_LIMITS.authFailuresPerAddress,
      },
    });
    servers.push(s);
    const [id, secret] = await s.credentials();
    const wrong: [string, string] = [id, 'sk_test_wrongwrongwrongwrong'];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await listFrom(s, wrong, '203.0.113.7')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(30).fill(429));
    expect429(
      await listFrom(s, wrong, '203.0.113.7'),
      /^Too many failed authentications (for this client id )?from this address\./,
      300,
    );
    // The guesser learns nothing: from its address even the right secret is refused.
    expect429(await listFrom(s, [id, secret], '203.0.113.7'), /from this address/, 300);
    // The client, at an address that has not failed, goes on.
    for (let i = 0; i < 3; i++) expect((await listFrom(s, [id, secret], '198.51.100.2')).status).toBe(200);
  });

  it('per client id and address: past the limit that address gets 429 for that id, even with the right secret; the id elsewhere and other ids there go on', async () => {
    const s = await startTestServer({
      trustProxy: true,
      rateLimits: { authFailuresPerClientAddress: rule('auth_fail_client_address', 3) },
    });
    servers.push(s);
    const [id, secret] = await s.credentials();
    const wrong: [string, string] = [id, 'sk_test_wrongwrongwrongwrong'];
    for (let i = 0; i < 3; i++) expect((await listFrom(s, wrong, '203.0.113.8')).status).toBe(401);
    expect429(
      await listFrom(s, wrong, '203.0.113.8'),
      /^Too many failed authentications for this client id from this address\. Try again in \d+ seconds?\.$/,
    );
    expect429(await listFrom(s, [id, secret], '203.0.113.8'), /for this client id from this address/);
    expect((await listFrom(s, [id, secret], '198.51.100.3')).status).toBe(200);
    // Another client at the guessing address is not held back by this client id's failures.
    expect((await listFrom(s, await s.credentials(), '203.0.113.8')).status).toBe(200);
    // Failures counted from the other address start from nothing there.
    for (let i = 0; i < 3; i++) expect((await listFrom(s, wrong, '198.51.100.3')).status).toBe(401);
    expect429(await listFrom(s, wrong, '198.51.100.3'), /for this client id from this address/);
  });

  it('per client address, across client ids; other addresses go on', async () => {
    const s = await startTestServer({
      trustProxy: true,
      rateLimits: { authFailuresPerAddress: rule('auth_fail_address', 4) },
    });
    servers.push(s);
    const good = await s.credentials();
    for (let i = 0; i < 4; i++)
      expect((await listFrom(s, [`cl_guess${i}`, 'sk_test_nope'], '203.0.113.9')).status).toBe(401);
    expect429(
      await listFrom(s, ['cl_guess9', 'sk_test_nope'], '203.0.113.9'),
      /^Too many failed authentications from this address\./,
    );
    expect429(await listFrom(s, good, '203.0.113.9'), /from this address/);
    // A request with no credentials at all counts as a failure of the address too.
    expect429(
      await s.http({ method: 'GET', path: '/api/v1/merchant', headers: from('203.0.113.9') }),
      /from this address/,
    );
    expect((await listFrom(s, good, '198.51.100.4')).status).toBe(200);
  });

  it('a failed portal sign-in and a failed API call count together per client id and address', async () => {
    const s = await startTestServer({
      trustProxy: true,
      rateLimits: { authFailuresPerClientAddress: rule('auth_fail_client_address', 2) },
    });
    servers.push(s);
    const [id, secret] = await s.credentials();
    const signIn = (secret_key: string, address: string) =>
      s.http({
        method: 'POST',
        path: '/portal/api/session',
        json: { client_id: id, secret_key },
        headers: { origin: s.url, ...from(address) },
      });
    expect((await signIn(`sk_test_${'y'.repeat(32)}`, '203.0.113.10')).status).toBe(401);
    expect((await listFrom(s, [id, 'sk_test_wrong'], '203.0.113.10')).status).toBe(401);
    expect429(await listFrom(s, [id, secret], '203.0.113.10'), /for this client id from this address/);
    expect((await signIn(secret, '203.0.113.10')).status).toBe(429);
    expect((await signIn(secret, '198.51.100.5')).status).toBe(201);
  });
});

describe('POST /portal/api/credentials', () => {
  it('per client address: past the limit 429, and no client is made', async () => {
    const s = await server({ credentialsPerAddress: rule('credentials_address', 3) });
    for (let i = 0; i < 3; i++)
      expect((await s.http({ method: 'POST', path: '/portal/api/credentials' })).status).toBe(201);
    const before = await tableCounts(s.core);
    const res = await s.http({ method: 'POST', path: '/portal/api/credentials' });
    expect429(res, /^Too many credentials created from this address\./);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('the API per client', () => {
  it('past the limit 429 for that client on /api/v1 and /sandbox alike; other clients go on', async () => {
    const s = await server({ apiPerClient: rule('api_client', 3) });
    const a = await s.credentials();
    const b = await s.credentials();
    for (let i = 0; i < 3; i++) expect((await listMerchants(s, a)).status).toBe(200);
    expect429(await listMerchants(s, a), /^Too many requests for this client\./);
    expect429(await s.http({ method: 'GET', path: '/sandbox/messages', auth: a }), /for this client/);
    expect((await listMerchants(s, b)).status).toBe(200);
    // Public routes are not counted against anyone.
    expect((await s.http({ method: 'GET', path: '/healthz' })).status).toBe(200);
  });
});

describe('pay page calls', () => {
  async function payLink(s: TestServer) {
    const m = await newMerchant(s);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '10.00' },
    });
    expect(res.status).toBe(200);
    return String(res.body.data.payment_link).split('/').pop()!;
  }
  const YEAR = new Date().getUTCFullYear() + 2;
  const declined = {
    method: 'card',
    card: { number: '4000000000000002', exp_month: 12, exp_year: YEAR, cvc: '123', name: 'Card Tester', zip: '94105' },
  };
  const pay = (s: TestServer, id: string) =>
    s.http({
      method: 'POST',
      path: `/pay/api/links/${id}/pay`,
      json: declined,
      headers: { 'idempotency-key': randomUUID() },
    });

  it('per link: card testing on one link stops at the limit, and the refused attempt charges nothing', async () => {
    const s = await server({ payWritesPerLink: rule('pay_link', 3) });
    const id = await payLink(s);
    for (let i = 0; i < 3; i++) expect((await pay(s, id)).status).toBe(402);
    const before = await tableCounts(s.core);
    expect429(await pay(s, id), /^Too many payment attempts on this link\./);
    expect(await tableCounts(s.core)).toEqual(before);
    // Reading the page is not a write: still answered.
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${id}` })).status).toBe(200);
    // Another link is not affected.
    expect((await pay(s, await payLink(s))).status).toBe(402);
  });

  it('per address: every /pay/api call counts, across links', async () => {
    const s = await server({ payPerAddress: rule('pay_address', 4) });
    const [one, two] = [await payLink(s), await payLink(s)];
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${one}` })).status).toBe(200);
    expect((await pay(s, one)).status).toBe(402);
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${two}` })).status).toBe(200);
    expect((await pay(s, two)).status).toBe(402);
    const before = await tableCounts(s.core);
    expect429(await pay(s, two), /^Too many payment page requests from this address\./);
    expect429(await s.http({ method: 'GET', path: `/pay/api/links/${one}` }), /from this address/);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('card attempts per address, across links (trustProxy: the address is X-Forwarded-For)', () => {
  const YEAR = new Date().getUTCFullYear() + 2;
  const card = {
    number: '4000000000000002',
    exp_month: 12,
    exp_year: YEAR,
    cvc: '123',
    name: 'Card Tester',
    zip: '94105',
  };
  const bank = {
    holder_name: 'Ada Lovelace',
    routing_number: '011000015',
    account_number: '000123456789',
    account_type: 'checking',
  };
  const from = (address: string) => ({ 'x-forwarded-for': address, 'idempotency-key': randomUUID() });

  it('card numbers spread over many links stop at the budget: 429, nothing written; bank payments and other addresses go on', async () => {
    const s = await server({ payCardsPerAddress: rule('pay_cards_address', 3, 600_000) }, { trustProxy: true });
    const m = await newMerchant(s);
    const link = async () => {
      const res = await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '1.00' },
      });
      return String(res.body.data.payment_link).split('/').pop()!;
    };
    const payCard = async (address: string, id?: string) =>
      s.http({
        method: 'POST',
        path: `/pay/api/links/${id ?? (await link())}/pay`,
        json: { method: 'card', card },
        headers: from(address),
      });

    // One attempt per link: the per-link limit never comes into it.
    for (let i = 0; i < 3; i++) expect((await payCard('203.0.113.7')).status).toBe(402);
    const id = await link();
    const before = await tableCounts(s.core);
    expect429(
      await payCard('203.0.113.7', id),
      /^Too many card payment attempts from this address\. Try again in \d+ seconds?\.$/,
      600,
    );
    expect(await tableCounts(s.core)).toEqual(before);

    // Saving a card through an add-card link sends a card number too.
    const customer = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Rita', email: 'rita@example.com' },
    });
    const customerId = customer.body.data.customer_id as number;
    expect(
      (
        await s.http({
          method: 'POST',
          path: `/api/v1/customers/request-card/${customerId}`,
          auth: m.auth,
          json: { merchant_key: m.merchant_key },
        })
      ).status,
    ).toBe(200);
    const [cardLink] = await rows(
      s,
      sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
    );
    expect429(
      await s.http({
        method: 'POST',
        path: `/pay/api/cards/${cardLink!.id}`,
        json: { card },
        headers: from('203.0.113.7'),
      }),
      /card payment attempts from this address/,
      600,
    );

    // A bank payment from the same address is not a card attempt; the link itself is still open.
    const bankPay = await s.http({
      method: 'POST',
      path: `/pay/api/links/${id}/pay`,
      json: { method: 'ach', bank, authorization_accepted: true },
      headers: from('203.0.113.7'),
    });
    expect(bankPay.status).toBe(200);
    // Another address has its own budget.
    expect((await payCard('203.0.113.8')).status).toBe(402);
  });
});

describe('hosted pay pages per address (GET /pay/{id})', () => {
  it("past the limit 429 as a plain-text page with Retry-After; another address, and the page's own calls, go on", async () => {
    const s = await server(
      { payPagesPerAddress: rule('pay_pages_address', 3, 60_000) },
      { trustProxy: true, payDir: writePayFixture() },
    );
    const m = await newMerchant(s);
    const made = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '1.00' },
    });
    const path = new URL(made.body.data.payment_link).pathname;
    const page = (address: string, p = path) =>
      s.http({ method: 'GET', path: p, headers: { 'x-forwarded-for': address } });

    expect((await page('198.51.100.4')).status).toBe(200);
    // Unknown ids count too: scanning for links is what the limit stops.
    expect((await page('198.51.100.4', '/pay/ord_doesnotexist000000')).status).toBe(404);
    expect((await page('198.51.100.4')).status).toBe(200);
    const refused = await page('198.51.100.4');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.text).toBe(
      `Too many payment pages opened from this address. Try again in ${retry} second${retry === 1 ? '' : 's'}.\n`,
    );
    expect(String(refused.headers['content-security-policy'])).toContain("default-src 'none'");

    expect((await page('198.51.100.5')).status).toBe(200);
    expect(
      (
        await s.http({
          method: 'GET',
          path: `/pay/api${path.replace('/pay', '/links')}`,
          headers: { 'x-forwarded-for': '198.51.100.4' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('windows', () => {
  it('counts start again once the window has passed, and Retry-After says when', async () => {
    const s = await server({
      authFailuresPerClientAddress: rule('auth_fail_client_address', 2, 2000),
      apiPerClient: rule('api_client', 2, 2000),
    });
    const auth = await s.credentials();
    for (let i = 0; i < 2; i++) expect((await listMerchants(s, auth)).status).toBe(200);
    const refused = await listMerchants(s, auth);
    expect429(refused, /for this client/, 2);
    await new Promise((r) => setTimeout(r, Number(refused.headers['retry-after']) * 1000 + 100));
    expect((await listMerchants(s, auth)).status).toBe(200);

    const wrong: [string, string] = [auth[0], 'sk_test_wrongwrongwrong'];
    for (let i = 0; i < 2; i++) expect((await listMerchants(s, wrong)).status).toBe(401);
    const locked = await listMerchants(s, wrong);
    expect429(locked, /failed authentications/, 2);
    await new Promise((r) => setTimeout(r, Number(locked.headers['retry-after']) * 1000 + 100));
    expect((await listMerchants(s, wrong)).status).toBe(401);
  });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
