import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding, type TestMerchant } from '../testing/fixtures.js';
import { writePayFixture } from '../testing/pay-dist.js';
import { startReceiver, type Receiver } from '@remit/core/testing';

let s: TestServer;
let m: TestMerchant;
let rx: Receiver;
beforeAll(async () => {
  s = await startTestServer({ payDir: writePayFixture() });
  m = await newMerchant(s);
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await s.close();
});

/** What helmet promises on every route: no sniffing, no framing by another origin. */
function expectBaseline(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'self'");
}

/** Every header helmet 8 sets with the server's options, as @fastify/helmet set them per request before. */
const HELMET_HEADERS = {
  'content-security-policy':
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;" +
    "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers on every route', () => {
  it("helmet's whole set, computed once, on an API answer, an error, an unknown route and /healthz", async () => {
    const answers = [
      await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '1.00' },
      }),
      await s.http({ method: 'POST', path: '/api/v1/pay-link', auth: m.auth, json: { merchant_key: m.merchant_key } }),
      await s.http({ method: 'GET', path: '/nope' }),
      await s.http({ method: 'GET', path: '/healthz' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 200]);
    for (const a of answers) {
      expect(a.headers).toMatchObject(HELMET_HEADERS);
      expect(a.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('/docs, the OpenAPI document, API answers (also errors and unknown routes) and /healthz', async () => {
    const docs = await s.http({ method: 'GET', path: '/docs' });
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    expectBaseline(docs.headers);
    // Its scripts are files of the server's own; nothing upgrades them to https on a plain-http server.
    expect(String(docs.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(String(docs.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    const script = await s.http({ method: 'GET', path: '/docs/static/swagger-initializer.js' });
    expect(script.status).toBe(200);
    expectBaseline(script.headers);
    for (const path of ['/api/v1/openapi.json', '/api/v1/merchant', '/api/v1/nope', '/healthz']) {
      const res = await s.http({ method: 'GET', path, auth: path === '/api/v1/merchant' ? m.auth : undefined });
      expectBaseline(res.headers);
      if (path.startsWith('/api/v1') && path !== '/api/v1/nope') expect(res.headers['cache-control']).toBe('no-store');
    }
    const unauth = await s.http({ method: 'GET', path: '/api/v1/merchant' });
    expect(unauth.status).toBe(401);
    expectBaseline(unauth.headers);
  });

  it('answers that carry a secret are Cache-Control: no-store', async () => {
    const creds = await s.http({ method: 'POST', path: '/portal/api/credentials' });
    expect(creds.status).toBe(201);
    expect(creds.headers['cache-control']).toBe('no-store');
    expectBaseline(creds.headers);
    const onboard = await s.http({
      method: 'POST',
      path: '/api/v1/onboarding',
      auth: m.auth,
      json: validOnboarding({ business_name: 'Cache Co' }),
    });
    expect(onboard.status).toBe(201);
    expect(onboard.body.data.merchant_key).toMatch(/^mk_test_/);
    expect(onboard.headers['cache-control']).toBe('no-store');
    const owner = await s.http({ method: 'GET', path: `/api/v1/merchant/${m.merchant_id}`, auth: m.auth });
    expect(owner.status).toBe(200);
    expect(owner.text).toContain(m.merchant_key);
    expect(owner.headers['cache-control']).toBe('no-store');
    const hook = await s.http({
      method: 'POST',
      path: '/api/v1/client/update-webhooks-url',
      auth: m.auth,
      json: { webhook_url: rx.url },
    });
    expect(hook.status).toBe(200);
    expect(hook.body.signing_secret).toMatch(/^whsec_/);
    expect(hook.headers['cache-control']).toBe('no-store');
  });

  it('the pay page keeps its stricter policy on top: its own CSP and framing, no X-Frame-Options', async () => {
    const link = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '5.00' },
    });
    expect(link.status).toBe(200);
    const url = new URL(String(link.body.data?.payment_link ?? link.body.payment_link));
    const page = await s.http({ method: 'GET', path: url.pathname, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(page.headers['cache-control']).toBe('no-store');
  });
});
