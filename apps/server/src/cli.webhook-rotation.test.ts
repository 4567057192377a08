import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_RETENTION, openCore, startWorkers, type Core } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { verifyWebhook } from '@remit/sdk';
import { buildApp } from './app.js';
import { coreOptions, loadConfig } from './config.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, tableCounts, testDbKind } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { runCliCaptured } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

/**
 * `webhooks rotate-secret --overlap`: during the overlap each delivery carries the new and the old
 * secret's signatures, and a receiver holding either verifies it; after it, only the new one's.
 * The server runs between CLI calls, never beside them (PGlite has one owner).
 */
let env: Record<string, string>;
let drop: () => Promise<void>;
let rx: Receiver;
beforeAll(async () => {
  const dataDir = await seededDataDir('remit-cli-whsec');
  env = { REMIT_DATA_DIR: dataDir, REMIT_ENCRYPTION_KEY: 'e'.repeat(64), REMIT_ALLOW_PRIVATE_WEBHOOKS: 'true' };
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_cli_whsec') : null;
  if (db) env.DATABASE_URL = db.url;
  rx = await startReceiver();
  drop = async () => {
    await rx.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => drop());

const cli = (...args: string[]) => runCliCaptured(args, env);

type Server = Awaited<ReturnType<typeof serve>>;

/**
 * The server with its webhook and message workers on the CLI's database (webhooks polled every 10 ms);
 * `remit purge` is run apart, unless `purgeMs` starts the background purge at that interval.
 */
async function serve(purgeMs?: number) {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const retention = purgeMs === undefined ? false : { ...DEFAULT_RETENTION, intervalMs: purgeMs };
  const workers = startWorkers(core.ctx, { webhooks: { pollMs: 10 }, retention, reconcile: false });
  return {
    core,
    /** A POST to `path` from the server's root, with `auth` as [client_id, secret_key]. */
    post: (path: string, auth?: [string, string], json?: unknown) =>
      send<any>({
        method: 'POST',
        url: `${base}${path}`,
        headers: auth ? { authorization: basicAuth(...auth) } : {},
        json,
      }),
    async close() {
      await workers.stop();
      await app.close();
      await core.close();
    },
  };
}

async function withServer<T>(fn: (s: Server) => Promise<T>, purgeMs?: number): Promise<T> {
  const s = await serve(purgeMs);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Onboards a merchant and returns the `merchant.onboarding` delivery the receiver got for it. */
async function delivery(s: Server, auth: [string, string]) {
  const business_name = `Rotation ${Math.random()}`;
  const res = await s.post('/api/v1/onboarding', auth, validOnboarding({ business_name }));
  expect(res.status).toBe(201);
  await rx.waitFor((all) => all.some((r) => r.body.includes(business_name)));
  const r = rx.received.find((x) => x.body.includes(business_name))!;
  return { headers: r.headers as Record<string, string>, body: r.body };
}

/** Whether a receiver holding `secret` accepts the delivery: the SDK and the Standard Webhooks library agree. */
function verifies(secret: string, d: { headers: Record<string, string>; body: string }): boolean {
  let sdk = true;
  let reference = true;
  try {
    verifyWebhook(secret, d.headers, d.body);
  } catch {
    sdk = false;
  }
  try {
    new Webhook(secret).verify(d.body, d.headers);
  } catch {
    reference = false;
  }
  expect(sdk).toBe(reference);
  return sdk;
}

let auth: [string, string];
let first: string;
/** A second client that never sets a webhook URL: it has no signing secret to rotate. */
let other: string;
beforeAll(async () => {
  first = await withServer(async (s) => {
    const made = () => s.post('/portal/api/credentials');
    const [a, b] = [(await made()).body, (await made()).body];
    auth = [a.client_id, a.secret_key];
    other = b.client_id;
    return (await s.post('/api/v1/client/update-webhooks-url', auth, { webhook_url: rx.url })).body.signing_secret;
  });
}, 300_000);

it('--overlap 1h: each delivery carries two signatures, new first; a receiver with either secret verifies it', async () => {
  const before = Date.now();
  const r = await cli('webhooks', 'rotate-secret', auth[0], '--overlap', '1h', '--json');
  expect(r.code).toBe(0);
  const rotated = JSON.parse(r.out) as { client_id: string; signing_secret: string; previous_valid_until: string };
  expect(rotated.client_id).toBe(auth[0]);
  expect(rotated.signing_secret).toMatch(/^whsec_/);
  expect(rotated.signing_secret).not.toBe(first);
  const until = Date.parse(rotated.previous_valid_until);
  expect(until - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
  expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);

  await withServer(async (s) => {
    // Stored sealed, never plain.
    const row = await s.core.ctx.db.execute(
      sql`select webhook_secret_enc, webhook_previous_secret_enc from clients where id = ${auth[0]}`,
    );
    const stored = JSON.stringify((row as unknown as { rows: unknown[] }).rows);
    expect(stored).not.toContain(first.slice('whsec_'.length));
    expect(stored).not.toContain(rotated.signing_secret.slice('whsec_'.length));

    const d = await delivery(s, auth);
    const sigs = d.headers['webhook-signature']!.split(' ');
    expect(sigs).toHaveLength(2);
    for (const sig of sigs) expect(sig).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifies(rotated.signing_secret, d)).toBe(true);
    expect(verifies(first, d)).toBe(true);
    // The new secret's signature comes first: alone, it verifies.
    expect(verifies(rotated.signing_secret, { ...d, headers: { ...d.headers, 'webhook-signature': sigs[0]! } })).toBe(
      true,
    );
    expect(verifies(first, { ...d, headers: { ...d.headers, 'webhook-signature': sigs[0]! } })).toBe(false);
  });
}, 300_000);

it('--overlap 2s: once it has passed only the new signature is sent, and the old secret is erased', async () => {
  const r = await cli('webhooks', 'rotate-secret', auth[0], '--overlap=2s');
  expect(r.code).toBe(0);
  expect(r.err).toMatch(
    /^Deliveries are signed with the old secret too until \d{4}-\d\d-\d\dT[\d:.]+Z\. Give the new one to the client's webhook receivers now: this command does not show it again\.\n$/,
  );
  const fresh = /signing_secret: (whsec_\S+)/.exec(r.out)![1]!;
  expect(r.out).toBe(`client_id:      ${auth[0]}\nsigning_secret: ${fresh}\n`);
  await new Promise((done) => setTimeout(done, 2_100));
  await withServer(async (s) => {
    const d = await delivery(s, auth);
    expect(d.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(fresh, d)).toBe(true);
    expect(verifies(first, d)).toBe(false);
    // Still stored, sealed, until the purge runs (this server's workers run none).
    expect((await previousSecret(s.core)).enc).toEqual(expect.any(String));
  });
  // `remit purge` erases it (as the workers' purge does on PostgreSQL).
  expect((await cli('purge')).code).toBe(0);
  expect(await withCore(previousSecret)).toEqual({ enc: null, until: null });

  // Without --overlap the secret before stops signing at once.
  const plain = await cli('webhooks', 'rotate-secret', auth[0]);
  expect(plain.code).toBe(0);
  expect(plain.err).toBe(
    "Deliveries are no longer signed with the old secret. Give the new one to the client's webhook receivers now: this command does not show it again.\n",
  );
  const newest = /signing_secret: (whsec_\S+)/.exec(plain.out)![1]!;
  await withServer(async (s) => {
    const d = await delivery(s, auth);
    expect(verifies(newest, d)).toBe(true);
    expect(verifies(fresh, d)).toBe(false);
  });
}, 300_000);

it('the background purge erases an old secret whose overlap ended, on either database, and the server goes on delivering', async () => {
  const r = await cli('webhooks', 'rotate-secret', auth[0], '--overlap=1s');
  expect(r.code).toBe(0);
  const fresh = /signing_secret: (whsec_\S+)/.exec(r.out)![1]!;
  expect((await withCore(previousSecret)).enc).toEqual(expect.any(String));
  await new Promise((done) => setTimeout(done, 1_100));
  const started = Date.now();
  await withServer(async (s) => {
    await expect.poll(() => previousSecret(s.core), { timeout: 10_000 }).toEqual({ enc: null, until: null });
    const d = await delivery(s, auth);
    expect(d.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(fresh, d)).toBe(true);
  }, 50);
  // A purge running every 50 ms beside the deliveries neither stalls them nor holds up the stop.
  expect(Date.now() - started).toBeLessThan(15_000);
}, 300_000);

async function previousSecret(core: Core) {
  const row = await core.ctx.db.execute(
    sql`select webhook_previous_secret_enc as enc, webhook_previous_secret_until as until from clients where id = ${auth[0]}`,
  );
  return (row as unknown as { rows: Array<{ enc: unknown; until: unknown }> }).rows[0]!;
}

it('bad inputs: unknown client, bad durations, no webhook URL yet: exit non-zero, a clear message, nothing changed', async () => {
  const state = () =>
    withCore(async (c) => ({
      counts: await tableCounts(c),
      clients: ((await c.ctx.db.execute(sql`select * from clients order by id`)) as unknown as { rows: unknown[] })
        .rows,
    }));
  const before = await state();
  const cases: Array<[string[], number, string | RegExp]> = [
    [['webhooks', 'rotate-secret', 'cl_nobody', '--overlap', '24h'], 1, 'remit: No client has the id cl_nobody.\n'],
    [
      ['webhooks', 'rotate-secret', other, '--overlap', '24h'],
      1,
      `remit: The client ${other} has no webhook signing secret yet: it is made when the client sets its webhook URL (POST /client/update-webhooks-url). Nothing was rotated.\n`,
    ],
    [
      ['webhooks', 'rotate-secret', auth[0], '--overlap', 'soon'],
      2,
      /^--overlap must be a duration like 15s, 30m, 24h or 7d, not soon\n/,
    ],
    [
      ['webhooks', 'rotate-secret', auth[0], '--overlap', '0s'],
      2,
      /^--overlap must be a duration like 15s, 30m, 24h or 7d, not 0s\n/,
    ],
    [
      ['webhooks', 'rotate-secret', auth[0], '--overlap'],
      2,
      /^--overlap must be a duration like 15s, 30m, 24h or 7d, not nothing\n/,
    ],
    [['webhooks', 'failed', '--overlap', '1h'], 2, /^Unknown command or option: webhooks failed --overlap 1h\n/],
    [['webhooks', 'rotate-secret'], 2, /^Unknown command or option: webhooks rotate-secret\n/],
  ];
  for (const [args, code, message] of cases) {
    const r = await cli(...args);
    expect({ args, code: r.code, out: r.out }).toEqual({ args, code, out: '' });
    if (typeof message === 'string') expect(r.err).toBe(message);
    else expect(r.err).toMatch(message);
  }
  expect(await state()).toEqual(before);
}, 300_000);

async function withCore<T>(fn: (c: Core) => Promise<T>): Promise<T> {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}
