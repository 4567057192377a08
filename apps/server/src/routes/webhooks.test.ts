import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, recordEvent, schema, inTransaction } from '@remit/core';
import { verifyWebhook } from '@remit/sdk';
import { eventually, startReceiver, type Receiver } from '@remit/core/testing';
import { newMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let prod: TestServer;
let rx: Receiver;
beforeAll(async () => {
  s = await startTestServer({ workers: { webhooks: { pollMs: 10, retryScale: 0.001 }, messages: { pollMs: 10 } } });
  prod = await startTestServer({ env: 'production' });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await s.close();
  await prod.close();
});

const register = (auth: [string, string], webhook_url: unknown, server = s) =>
  server.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url } });

const clientRow = async (id: string, server = s) =>
  (await server.core.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, id)))[0]!;

async function emit(clientId: string, n = 1, type: 'preauth' | 'merchant.approval' = 'preauth') {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const data =
      type === 'preauth'
        ? { merchant_id: 'm_1', guid: `txn_${i}`, amount: 1.5, order_id: `o${i}`, customer_id: 0 }
        : { merchant_id: 'm_1', business_name: 'Acme', email: 'a@b.co', company_id: 'c' };
    ids.push(await inTransaction(s.core.ctx, (_tx, c) => recordEvent(c, { clientId, type, data: data as never })));
  }
  return ids;
}

describe('POST /client/update-webhooks-url', () => {
  it('registers the URL and returns {status, message, signing_secret}; the secret is kept encrypted', async () => {
    const auth = await s.credentials();
    const res = await register(auth, rx.url);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'signing_secret', 'status']);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Webhook URL updated successfully.');
    expect(res.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const row = await clientRow(auth[0]);
    expect(row.webhookUrl).toBe(rx.url);
    expect(row.webhookSecretEnc).not.toContain(res.body.signing_secret.slice(6));
    expect(s.core.ctx.vault.decrypt(row.webhookSecretEnc!)).toBe(res.body.signing_secret);
  });

  it('a new registration replaces the URL and keeps the signing secret', async () => {
    const auth = await s.credentials();
    const first = await register(auth, 'http://127.0.0.1:1/a');
    const second = await register(auth, 'https://hooks.example.com/b?x=1');
    expect(second.status).toBe(200);
    expect(second.body.signing_secret).toBe(first.body.signing_secret);
    expect((await clientRow(auth[0])).webhookUrl).toBe('https://hooks.example.com/b?x=1');
  });

  it.each([
    ['missing', undefined, 'webhook_url'],
    ['a number', 42, 'webhook_url'],
    ['relative', '/hooks', 'webhook_url must be an absolute http or https URL.'],
    ['ftp', 'ftp://example.com/x', 'webhook_url must be an absolute http or https URL.'],
    ['with credentials', 'https://u:p@example.com/x', 'webhook_url must not carry a user name or password.'],
    ['too long', `https://example.com/${'a'.repeat(2048)}`, 'at most 2048'],
  ])('refuses a URL that is %s with status:false and the field', async (_name, url, msg) => {
    const auth = await s.credentials();
    const res = await register(auth, url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, errors: [expect.objectContaining({ path: 'webhook_url' })] });
    expect(res.body.result).toBeUndefined();
    expect(res.body.message).toContain(msg);
    expect((await clientRow(auth[0])).webhookUrl).toBeNull();
  });

  it('401 with status:false without credentials', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/client/update-webhooks-url',
      json: { webhook_url: rx.url },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: false, code: 'unauthorized' });
  });

  it.each([
    ['http', 'http://hooks.example.com/x', 'https'],
    ['loopback', 'https://127.0.0.1/x', 'public host'],
    ['localhost', 'https://localhost:8443/x', 'public host'],
    ['private', 'https://10.1.2.3/x', 'public host'],
    ['link-local metadata', 'https://169.254.169.254/latest', 'public host'],
    ['IPv6 loopback', 'https://[::1]/x', 'public host'],
    ['IPv4-mapped IPv6', 'https://[::ffff:192.168.0.1]/x', 'public host'],
    ['GCP metadata name', 'https://metadata.google.internal/x', 'public host'],
  ])('production refuses %s', async (_n, url, msg) => {
    const { client_id, secret_key } = await createCredentials(prod.core.ctx);
    const res = await register([client_id, secret_key], url, prod);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'invalid_webhook_url' });
    expect(res.body.message).toContain(msg);
  });

  it('production accepts a public https URL', async () => {
    const { client_id, secret_key } = await createCredentials(prod.core.ctx);
    const res = await register([client_id, secret_key], 'https://hooks.example.com/remit', prod);
    expect(res.status).toBe(200);
    expect(res.body.signing_secret).toMatch(/^whsec_/);
  });
});

describe('webhook delivery through the server', () => {
  it('onboarding and approval reach the registered URL, signed', async () => {
    const auth = await s.credentials();
    const { body } = await register(auth, rx.url);
    const m = await newMerchant(s, { auth });
    await rx.waitFor((all) => all.filter((r) => JSON.parse(r.body).data.merchant_id === m.merchant_id).length >= 2);
    const mine = rx.received.filter((r) => JSON.parse(r.body).data.merchant_id === m.merchant_id);
    const wh = new Webhook(body.signing_secret);
    const events = mine.map((r) => {
      wh.verify(r.body, r.headers as Record<string, string>);
      return verifyWebhook(body.signing_secret, r.headers, r.body);
    });
    expect(events.map((e) => e.event_type).sort()).toEqual(['merchant.approval', 'merchant.onboarding']);
    const onboarding = events.find((e) => e.event_type === 'merchant.onboarding')!;
    expect(onboarding.data).toEqual({
      merchant_key: m.merchant_key,
      merchant_id: m.merchant_id,
      business_name: expect.any(String),
      email: expect.any(String),
      public_key: m.public_key,
    });
  });
});

describe('GET /client/webhook-deliveries and retry', () => {
  let auth: [string, string];
  let ids: string[];
  beforeAll(async () => {
    auth = await s.credentials();
    await register(auth, rx.url);
    ids = [...(await emit(auth[0], 3)), ...(await emit(auth[0], 1, 'merchant.approval'))];
    await eventually(async () => {
      const r = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries?status=delivered', auth });
      return r.body.data.totalCount === 4;
    });
  });

  it('lists this client’s deliveries with attempts, newest first', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.data).toMatchObject({ page: 0, limit: 20, totalCount: 4, totalPage: 1 });
    const d = res.body.data.deliveries;
    expect(d.map((x: { event_id: string }) => x.event_id).sort()).toEqual([...ids].sort());
    expect(d[0]).toEqual({
      id: expect.stringMatching(/^dlv_/),
      event_id: expect.stringMatching(/^evt_/),
      event_type: expect.any(String),
      url: rx.url,
      status: 'delivered',
      attempts: [
        {
          at: expect.any(String),
          status_code: 200,
          latency_ms: expect.any(Number),
          error: null,
          response_body: expect.any(String),
        },
      ],
      next_attempt_at: null,
      created_at: expect.any(String),
      delivered_at: expect.any(String),
    });
  });

  it('filters by event_type and status, in the query string or a GET JSON body, and pages', async () => {
    const q = await s.http({
      method: 'GET',
      path: '/api/v1/client/webhook-deliveries?event_type=merchant.approval',
      auth,
    });
    expect(q.body.data.totalCount).toBe(1);
    expect(q.body.data.deliveries[0].event_type).toBe('merchant.approval');
    const b = await s.http({
      method: 'GET',
      path: '/api/v1/client/webhook-deliveries',
      auth,
      json: { event_type: 'preauth', limit: 2, page: 1 },
    });
    // Pages count from 0, as everywhere in the API (the spec's pageNumber does).
    expect(b.body.data).toMatchObject({ page: 1, limit: 2, totalCount: 3, totalPage: 2 });
    expect(b.body.data.deliveries).toHaveLength(1);
    const none = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries?status=failed', auth });
    expect(none.body.data).toMatchObject({ totalCount: 0, deliveries: [] });
  });

  it('refuses bad filters with status:false and the field', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries?status=lost&limit=500', auth });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['limit', 'status']);
  });

  it('another client sees none of them', async () => {
    const other = await s.credentials();
    const res = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth: other });
    expect(res.body.data.totalCount).toBe(0);
  });

  it('POST …/{id}/retry sends a delivery again now; another client’s id is 404', async () => {
    const list = await s.http({
      method: 'GET',
      path: '/api/v1/client/webhook-deliveries?event_type=merchant.approval',
      auth,
    });
    const d = list.body.data.deliveries[0];
    const other = await s.credentials();
    const foreign = await s.http({
      method: 'POST',
      path: `/api/v1/client/webhook-deliveries/${d.id}/retry`,
      auth: other,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({
      status: false,
      code: 'delivery_not_found',
      message: 'Webhook delivery not found.',
    });
    const before = rx.received.filter((r) => r.headers['webhook-id'] === d.event_id).length;
    const res = await s.http({ method: 'POST', path: `/api/v1/client/webhook-deliveries/${d.id}/retry`, auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, data: { id: d.id, status: 'pending' } });
    await rx.waitFor((all) => all.filter((r) => r.headers['webhook-id'] === d.event_id).length === before + 1);
    const after = await eventually(async () => {
      const r = await s.http({
        method: 'GET',
        path: '/api/v1/client/webhook-deliveries?event_type=merchant.approval',
        auth,
      });
      const x = r.body.data.deliveries[0];
      return x.status === 'delivered' && x.attempts.length === 2 ? x : null;
    });
    expect(after.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([200, 200]);
  });

  it('retry while a 410 keeps the URL disabled holds the delivery until the URL is registered again', async () => {
    const list = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries?limit=1', auth });
    const d = list.body.data.deliveries[0];
    await s.core.ctx.db
      .update(schema.clients)
      .set({ webhookDisabledAt: new Date() })
      .where(eq(schema.clients.id, auth[0]));
    const res = await s.http({ method: 'POST', path: `/api/v1/client/webhook-deliveries/${d.id}/retry`, auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: true, data: { id: d.id, status: 'disabled', next_attempt_at: null } });
    expect(res.body.message).toContain('registered again');
    const before = rx.received.filter((r) => r.headers['webhook-id'] === d.event_id).length;
    await register(auth, rx.url);
    await rx.waitFor((all) => all.filter((r) => r.headers['webhook-id'] === d.event_id).length === before + 1);
  });

  it('unknown id is 404', async () => {
    const res = await s.http({ method: 'POST', path: '/api/v1/client/webhook-deliveries/dlv_nope/retry', auth });
    expect(res.status).toBe(404);
    expect(res.body.status).toBe(false);
  });
});

describe('OpenAPI', () => {
  it('documents the webhook-management endpoints and the sandbox inbox', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/openapi.json' });
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/client/update-webhooks-url',
        '/api/v1/client/webhook-deliveries',
        '/api/v1/client/webhook-deliveries/{id}/retry',
        '/sandbox/messages',
      ]),
    );
    const list = res.body.paths['/api/v1/client/webhook-deliveries'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['event_type', 'status', 'page', 'limit']),
    );
  });
});
