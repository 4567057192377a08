import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, isBlockedAddress, recordEvent, schema, inTransaction } from '@remit/core';
import { eventually } from '@remit/core/testing';
import { freePort } from '../testing/process.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Production webhooks reach public addresses only: IPv6 forms that embed an IPv4 address, and
 * names that resolve to a blocked address, are refused at registration and at connect time; the
 * delivery log never shows the address a name resolved to.
 */
let prod: TestServer;
let sandbox: TestServer;
/** A name of this machine that resolves to a loopback or private address (not `localhost`). */
let localName: string;
let localAddress: string;
beforeAll(async () => {
  // Port 9 (discard) is opened, so that the address guard, not the port rule, is what refuses below.
  prod = await startTestServer({
    env: 'production',
    webhookPorts: [9],
    workers: { webhooks: { pollMs: 10, retryScale: 1000 }, messages: { pollMs: 1000 } },
  });
  sandbox = await startTestServer({
    workers: { webhooks: { pollMs: 10, retryScale: 1000 }, messages: { pollMs: 1000 } },
  });
  localName = hostname();
  localAddress = (await lookup(localName)).address;
});
afterAll(async () => {
  await prod.close();
  await sandbox.close();
});

const register = (s: TestServer, auth: [string, string], webhook_url: string) =>
  s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url } });

describe('registration in production', () => {
  it.each([
    ['IPv4-compatible loopback, as written', 'https://[::127.0.0.1]/x'],
    ['IPv4-compatible loopback, normalised', 'https://[::7f00:1]/x'],
    ['IPv4-translated (::ffff:0:0/96)', 'https://[::ffff:0:7f00:1]/x'],
    ['IPv4-mapped metadata, hex', 'https://[::ffff:a9fe:a9fe]/latest'],
    ['6to4 of 127.0.0.1', 'https://[2002:7f00:1::1]/x'],
    ['NAT64 of 10.0.0.1', 'https://[64:ff9b::a00:1]/x'],
    ['local-use NAT64', 'https://[64:ff9b:1::1]/x'],
    ['discard-only 100::/64', 'https://[100::1]/x'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x'],
    ['benchmarking 198.18.0.0/15', 'https://198.18.0.1/x'],
    ['unique local', 'https://[fd12::1]/x'],
  ])('refuses %s', async (_n, url) => {
    const { client_id, secret_key } = await createCredentials(prod.core.ctx);
    const res = await register(prod, [client_id, secret_key], url);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, code: 'invalid_webhook_url', errors: [{ path: 'webhook_url' }] });
    expect(res.body.message).toMatch(/^webhook_url must point at a public host/);
    expect(
      (await prod.core.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, client_id)))[0]!.webhookUrl,
    ).toBeNull();
  });

  it('resolves the host and refuses a name that resolves to a blocked address, without naming the address', async () => {
    expect(isBlockedAddress(localAddress)).toBe(true); // the premise: this machine's name is not public
    const { client_id, secret_key } = await createCredentials(prod.core.ctx);
    const res = await register(prod, [client_id, secret_key], `https://${localName}/hooks`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_webhook_url');
    expect(res.body.message).toBe(
      `webhook_url must point at a public host: ${localName} resolves to a loopback, private, link-local, metadata or other special-use address, which production refuses.`,
    );
    expect(res.text).not.toContain(localAddress);
  });

  it('still accepts public addresses of both families', async () => {
    for (const url of ['https://8.8.8.8/x', 'https://[2606:4700::1111]/x', 'https://[::ffff:8.8.8.8]/x']) {
      const { client_id, secret_key } = await createCredentials(prod.core.ctx);
      expect((await register(prod, [client_id, secret_key], url)).status).toBe(200);
    }
  });
});

/** Stores `url` as the client's webhook URL directly (registration would refuse it), emits one event, returns its first attempt's error. */
async function firstError(s: TestServer, url: string): Promise<{ auth: [string, string]; error: string }> {
  const { client_id, secret_key } = await createCredentials(s.core.ctx);
  const auth: [string, string] = [client_id, secret_key];
  await s.core.ctx.db
    .update(schema.clients)
    .set({ webhookUrl: url, webhookSecretEnc: s.core.ctx.vault.encrypt('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') })
    .where(eq(schema.clients.id, client_id));
  const data = { merchant_id: 'm_1', guid: 'txn_1', amount: 1.5, order_id: 'o1', customer_id: 0 };
  await inTransaction(s.core.ctx, (_tx, c) => recordEvent(c, { clientId: client_id, type: 'preauth', data }));
  const error = await eventually(async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth });
    return (res.body.data.deliveries[0]?.attempts[0]?.error as string | undefined) ?? null;
  });
  return { auth, error };
}

describe('delivery in production (the connect-time guard)', () => {
  it.each([
    'https://[::7f00:1]:9/x',
    'https://[::ffff:0:7f00:1]:9/x',
    'https://[64:ff9b::7f00:1]:9/x',
    'https://[2002:7f00:1::1]:9/x',
  ])('refuses to connect to %s', async (url) => {
    const { error } = await firstError(prod, url);
    expect(error).toMatch(
      /^refused to connect to [0-9a-f:]+: it is or resolves to a loopback, private, link-local, metadata or other special-use address$/,
    );
  });

  it('refuses a name that resolves to a blocked address, and the log does not show the address', async () => {
    const { error } = await firstError(prod, `https://${localName}:9/x`);
    expect(error).toBe(
      `EBLOCKEDADDRESS: refused to connect to ${localName}: it is or resolves to a loopback, private, link-local, metadata or other special-use address`,
    );
    expect(error).not.toContain(localAddress);
  });
});

describe('delivery errors in sandbox', () => {
  it('a refused connection to a name is recorded with the name, not the address it resolved to', async () => {
    const port = await freePort();
    const { error } = await firstError(sandbox, `http://${localName}:${port}/x`);
    expect(error).toBe(`ECONNREFUSED: connection refused (${localName})`);
    expect(error).not.toContain(localAddress);
  });
});
