import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { newMerchant } from './testing/fixtures.js';
import { startTestServer, testDbKind, type TestServer } from './testing/harness.js';
import { TEST_CARD, charge, newCustomer, noonClock } from './testing/payments.js';
import { REMIT_VERSION } from './version.js';

/** The value of one sample line of the Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/);
    if (!m || m[1] !== name) continue;
    const have = m[2] ? m[2].split(',') : [];
    if (want.every((w) => have.includes(w)) && have.length === want.length) return Number(m[3]);
  }
  return undefined;
}

describe('sandbox', () => {
  let s: TestServer;
  let rx: Receiver;
  beforeAll(async () => {
    s = await startTestServer({
      now: noonClock(),
      metrics: {},
      workers: { webhooks: { pollMs: 10 }, messages: { pollMs: 10 } },
    });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await s.close();
    await rx.close();
  });

  it('GET /metrics: requests by route pattern and status, payments, deliveries, messages, queue, process', async () => {
    const auth = await s.credentials();
    await s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url: rx.url } });
    const m = await newMerchant(s, { auth });
    const ok = await newCustomer(s, m);
    await charge(s, m, ok, '10.00');
    await charge(s, m, ok, '11.00');
    const bad = await newCustomer(s, m, { card: { ...TEST_CARD, number: '4000000000000002' } });
    const declined = await s.http({
      method: 'POST',
      path: `/api/v1/customers/charge/${bad}`,
      auth,
      json: { merchant_key: m.merchant_key, amount: '5.00', order_id: 'd-1' },
    });
    expect(declined.status).toBe(402);
    const emailed = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth,
      json: { merchant_key: m.merchant_key, first_name: 'Em', email: 'em@example.com' },
    });
    await s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${emailed.body.data.customer_id}`,
      auth,
      json: { merchant_key: m.merchant_key },
    });
    // merchant.onboarding, merchant.approval, two payment.success.
    await rx.waitFor((r) => r.length >= 4, 20_000);

    let text = '';
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      const r = await s.http({ method: 'GET', path: '/metrics' });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      text = r.text;
      if (
        (sample(text, 'remit_messages_total', { channel: 'email', outcome: 'delivered_to_inbox' }) ?? 0) >= 1 &&
        (sample(text, 'remit_webhook_deliveries_total', { outcome: 'delivered' }) ?? 0) >= 4
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const charges = { method: 'POST', route: '/api/v1/customers/charge/:customerId' };
    expect(sample(text, 'remit_http_request_duration_seconds_count', { ...charges, status: '200' })).toBe(2);
    expect(sample(text, 'remit_http_request_duration_seconds_count', { ...charges, status: '402' })).toBe(1);
    expect(sample(text, 'remit_http_request_duration_seconds_bucket', { ...charges, status: '200', le: '+Inf' })).toBe(
      2,
    );
    // Route patterns, never the URLs: no customer id in any label.
    expect(text).not.toContain(`/customers/charge/${ok}`);
    expect(sample(text, 'remit_payments_total', { method: 'card', outcome: 'approved' })).toBe(2);
    expect(sample(text, 'remit_payments_total', { method: 'card', outcome: 'declined' })).toBe(1);
    expect(sample(text, 'remit_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(4);
    expect(sample(text, 'remit_messages_total', { channel: 'email', outcome: 'delivered_to_inbox' })).toBe(1);
    expect(sample(text, 'remit_webhook_queue_due')).toBe(0);
    expect(sample(text, 'remit_webhook_queue_oldest_seconds')).toBe(0);
    expect(sample(text, 'remit_build_info', { version: REMIT_VERSION, node: process.version })).toBe(1);
    expect(REMIT_VERSION).toBe(
      JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version,
    );
    expect(sample(text, 'remit_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'remit_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    if (testDbKind === 'postgres') {
      expect(sample(text, 'remit_db_pool_connections', { state: 'max' })).toBe(20);
      expect(sample(text, 'remit_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(text).not.toContain('remit_db_pool_connections');
    }
  });
});

describe('production', () => {
  it('without REMIT_METRICS_TOKEN there is no /metrics (404)', async () => {
    const p = await startTestServer({ env: 'production', metrics: {} });
    try {
      expect((await p.http({ method: 'GET', path: '/metrics' })).status).toBe(404);
    } finally {
      await p.close();
    }
  });

  it('with it, only Authorization: Bearer <token> reads the metrics', async () => {
    const p = await startTestServer({ env: 'production', metrics: { token: 'scrape-secret-123' } });
    try {
      const none = await p.http({ method: 'GET', path: '/metrics' });
      expect([none.status, none.body.code, none.headers['www-authenticate']]).toEqual([401, 'unauthorized', 'Bearer']);
      expect(
        (await p.http({ method: 'GET', path: '/metrics', headers: { authorization: 'Bearer wrong' } })).status,
      ).toBe(401);
      const r = await p.http({
        method: 'GET',
        path: '/metrics',
        headers: { authorization: 'Bearer scrape-secret-123' },
      });
      expect(r.status).toBe(200);
      expect(r.text).toContain('# TYPE remit_http_request_duration_seconds histogram');
    } finally {
      await p.close();
    }
  });
});
