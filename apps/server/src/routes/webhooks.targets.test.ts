import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, recordEvent, schema, inTransaction } from '@remit/core';
import { eventually, startReceiver, type Receiver } from '@remit/core/testing';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Where a webhook may point, over HTTP: production URLs name port 443 or a port the operator
 * opened (REMIT_WEBHOOK_PORTS); a sandbox that other machines reach refuses loopback and private
 * targets unless the operator allows them (REMIT_ALLOW_PRIVATE_WEBHOOKS); and the delivery log
 * shows only a short text excerpt of what a receiver answered.
 */
const workers = { webhooks: { pollMs: 10, retryScale: 1000 }, messages: { pollMs: 1000 } };
let prod: TestServer;
let prodPorts: TestServer;
let exposed: TestServer;
let sandbox: TestServer;
let rx: Receiver;
beforeAll(async () => {
  [prod, prodPorts, exposed, sandbox, rx] = await Promise.all([
    startTestServer({ env: 'production', workers }),
    startTestServer({ env: 'production', webhookPorts: [8443, 9443] }),
    // A sandbox reachable from other machines (HOST=0.0.0.0): loadConfig turns private webhooks off.
    startTestServer({ privateWebhooks: false, workers }),
    startTestServer({ workers: { ...workers, webhooks: { pollMs: 10, retryScale: 0.001 } } }),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([prod, prodPorts, exposed, sandbox].map((s) => s?.close()));
  await rx?.close();
});

const register = (s: TestServer, auth: [string, string], webhook_url: string) =>
  s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url } });

async function client(s: TestServer): Promise<[string, string]> {
  const { client_id, secret_key } = await createCredentials(s.core.ctx);
  return [client_id, secret_key];
}
const storedUrl = async (s: TestServer, id: string) =>
  (await s.core.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, id)))[0]!.webhookUrl;

/** Stores `url` as a new client's webhook URL directly (as registered before a rule changed), emits one event, returns its first attempt. */
async function firstAttempt(
  s: TestServer,
  url: string,
): Promise<{ error: string | null; status_code: number | null; response_body?: string | null }> {
  const auth = await client(s);
  await s.core.ctx.db
    .update(schema.clients)
    .set({ webhookUrl: url, webhookSecretEnc: s.core.ctx.vault.encrypt('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') })
    .where(eq(schema.clients.id, auth[0]));
  const data = { merchant_id: 'm_1', guid: 'txn_1', amount: 1.5, order_id: 'o1', customer_id: 0 };
  await inTransaction(s.core.ctx, (_tx, c) => recordEvent(c, { clientId: auth[0], type: 'preauth', data }));
  return eventually(
    async () =>
      (await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth })).body.data.deliveries[0]
        ?.attempts[0],
  );
}

describe('production webhook ports', () => {
  it('refuses a port other than 443 with 400 naming the setting, and stores nothing', async () => {
    const auth = await client(prod);
    for (const url of [
      'https://hooks.example.com:22/x',
      'https://hooks.example.com:8443/x',
      'https://hooks.example.com:80/x',
    ]) {
      const res = await register(prod, auth, url);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({
        status: false,
        code: 'invalid_webhook_url',
        message: 'webhook_url must use port 443 in production (the operator opens others with REMIT_WEBHOOK_PORTS).',
        errors: [{ path: 'webhook_url' }],
      });
    }
    expect(await storedUrl(prod, auth[0])).toBeNull();
    expect((await register(prod, auth, 'https://hooks.example.com:443/x')).status).toBe(200);
    expect(await storedUrl(prod, auth[0])).toBe('https://hooks.example.com/x');
  });

  it('accepts the ports REMIT_WEBHOOK_PORTS lists, and 443, and no others', async () => {
    const auth = await client(prodPorts);
    for (const url of [
      'https://hooks.example.com:8443/x',
      'https://hooks.example.com:9443/x',
      'https://hooks.example.com/x',
    ]) {
      expect((await register(prodPorts, auth, url)).status, url).toBe(200);
    }
    const res = await register(prodPorts, auth, 'https://hooks.example.com:6379/x');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'webhook_url must use port 443, 8443 or 9443 in production (the operator opens others with REMIT_WEBHOOK_PORTS).',
    );
  });

  it('a URL stored on a port no longer allowed is refused at send time, before any connection', async () => {
    const attempt = await firstAttempt(prod, 'https://192.0.2.1:22/x');
    expect(attempt).toMatchObject({
      status_code: null,
      error: 'refused: port 22 is not open to production webhooks (allowed: 443)',
    });
  });
});

describe('a sandbox other machines reach (private webhooks off)', () => {
  const NOT_PUBLIC =
    'webhook_url must point at a public host: this sandbox is reachable from other machines, so loopback, private, link-local, metadata and other special-use addresses are refused (the operator can allow them with REMIT_ALLOW_PRIVATE_WEBHOOKS=true).';

  it.each([
    'http://127.0.0.1:5432/x',
    'http://localhost:9/x',
    'http://10.1.2.3/x',
    'http://169.254.169.254/latest',
    'http://[::1]:8080/x',
    'http://[::ffff:127.0.0.1]/x',
  ])('refuses %s with 400 and stores nothing', async (url) => {
    const auth = await client(exposed);
    const res = await register(exposed, auth, url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      code: 'invalid_webhook_url',
      message: NOT_PUBLIC,
      errors: [{ path: 'webhook_url' }],
    });
    expect(await storedUrl(exposed, auth[0])).toBeNull();
  });

  it('refuses a name that resolves to a loopback or private address, without naming the address', async () => {
    const auth = await client(exposed);
    const res = await register(exposed, auth, `http://${hostname()}:9/x`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `webhook_url must point at a public host: ${hostname()} resolves to a loopback, private, link-local, metadata or other special-use address, which this sandbox refuses.`,
    );
  });

  it('still accepts public hosts, over http as a sandbox allows', async () => {
    const auth = await client(exposed);
    expect((await register(exposed, auth, 'http://hooks.example.com/x')).status).toBe(200);
    expect((await register(exposed, auth, 'https://hooks.example.com/x')).status).toBe(200);
  });

  it('a loopback URL stored earlier is refused at connect time: the internal service is never reached', async () => {
    const before = rx.received.length;
    const attempt = await firstAttempt(exposed, rx.url);
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/^refused to connect to 127\.0\.0\.1: it is or resolves to a loopback, private/);
    expect(rx.received.length).toBe(before);
  });

  it('a sandbox on loopback (the default) still delivers to loopback', async () => {
    const auth = await client(sandbox);
    expect((await register(sandbox, auth, 'http://127.0.0.1:5432/x')).status).toBe(200);
  });
});

describe('the delivery log shows a short text excerpt of the answer', () => {
  it('markup and control characters removed, at most 200 characters', async () => {
    const secret = 'internal-token-'.repeat(40);
    rx.behave((_r, res) =>
      res
        .writeHead(500, { 'content-type': 'text/html' })
        .end(
          `<html><head><script>var k="${secret}"</script></head><body><h1>Server\u0000 error</h1>\r\n<p>${'detail '.repeat(100)}${secret}</p></body></html>`,
        ),
    );
    const attempt = await firstAttempt(sandbox, rx.url);
    rx.behave((_r, res) => res.writeHead(200).end('ok'));
    expect(attempt.status_code).toBe(500);
    const body = attempt.response_body!;
    expect(body.startsWith('Server error detail detail')).toBe(true);
    expect(Array.from(body)).toHaveLength(200);
    expect(body.endsWith('…')).toBe(true);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what must not be there
    expect(body).not.toMatch(/[<>\u0000-\u001f]/);
    expect(body).not.toContain('internal-token');
  });

  it('a JSON answer is shown as it came when it is short', async () => {
    rx.behave((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
    const attempt = await firstAttempt(sandbox, rx.url);
    rx.behave((_r, res) => res.writeHead(200).end('ok'));
    expect(attempt).toMatchObject({ status_code: 200, response_body: '{"received":true}' });
  });
});
