import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCore, Vault } from '@remit/core';
import { buildApp } from './app.js';
import { runCli } from './cli.js';
import { coreOptions, loadConfig } from './config.js';
import { createTestDatabase, testDbKind, type TestServer } from './testing/harness.js';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import { charge, merchantPost, newCustomer, TEST_CARD } from './testing/payments.js';
import { basicAuth, send } from './testing/http.js';
import { runToExit } from './testing/process.js';
import { generousRateLimits } from './rate-limits.js';
import { seededDataDir } from './testing/data-dir.js';

/**
 * Rotating the encryption key (docs/operations.md "Rotating the encryption key"): data written under
 * key A reads with B beside A as REMIT_ENCRYPTION_KEY_PREVIOUS; B alone is refused until `keys reseal`
 * (a process of its own) has sealed everything again with B; then B alone reads everything, and an
 * idempotent repeat whose fingerprint was a MAC under A still replays. One server per phase.
 */
const A = randomBytes(32).toString('hex');
const B = randomBytes(32).toString('hex');
const idA = new Vault(Buffer.from(A, 'hex')).keyId;
const idB = new Vault(Buffer.from(B, 'hex')).keyId;
let env: Record<string, string>;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const dir = await seededDataDir('remit-rotate-key');
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_key_rot') : null;
  env = {
    REMIT_ENV: 'sandbox',
    REMIT_WORKERS: 'off',
    REMIT_DATA_DIR: dir,
    DATABASE_URL: db?.url ?? '',
    REMIT_ENCRYPTION_KEY_PREVIOUS: '',
  };
  cleanup = async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(() => cleanup());

/** A server on the test's database with these keys, over HTTP. */
async function serve(keys: Record<string, string>): Promise<TestServer> {
  const core = await openCore({ ...coreOptions(loadConfig({ ...env, ...keys })), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core, { rateLimits: generousRateLimits() });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  core.ctx.publicUrl = url;
  const http: TestServer['http'] = ({ path, auth, headers, ...rest }) =>
    send({
      ...rest,
      url: `${url}${path}`,
      headers: { ...(auth ? { authorization: basicAuth(auth[0], auth[1]) } : {}), ...headers },
    });
  return {
    url,
    api: `${url}/api/v1`,
    core,
    app,
    http,
    workers: null,
    databaseUrl: env.DATABASE_URL || null,
    async credentials() {
      const res = await http<{ client_id: string; secret_key: string }>({
        method: 'POST',
        path: '/portal/api/credentials',
      });
      return [res.body.client_id, res.body.secret_key];
    },
    async close() {
      await app.close();
      await core.close();
    },
  };
}

const reseal = (keys: Record<string, string>) =>
  runToExit('apps/server/src/cli.ts', { ...env, ...keys }, { args: ['keys', 'reseal', '--json'] });

interface Written {
  m: TestMerchant;
  signingSecret: string;
  customerId: number;
  charged: { key: string; text: string };
  paid: { linkId: string; key: string; text: string };
}
let w: Written;

const webhookSecret = async (s: TestServer, m: TestMerchant) => {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/client/update-webhooks-url',
    auth: m.auth,
    json: { webhook_url: 'http://127.0.0.1:9/hooks' },
  });
  expect(res.status).toBe(200);
  return res.body.signing_secret as string;
};
const chargeAgain = (s: TestServer) =>
  merchantPost(
    s,
    w.m,
    `/customers/charge/${w.customerId}`,
    { amount: '5.00', order_id: 'rot-1', preAuth: false },
    w.charged.key,
  );
const payAgain = (s: TestServer) =>
  s.http({
    method: 'POST',
    path: `/pay/api/links/${w.paid.linkId}/pay`,
    json: { method: 'card', card: { ...TEST_CARD, name: 'Ada Lovelace' } },
    headers: { 'idempotency-key': w.paid.key },
  });

/** What every phase reads back: the webhook secret, the owner call's merchant key, a stored card, two replays. */
async function readsBack(s: TestServer) {
  expect(await webhookSecret(s, w.m)).toBe(w.signingSecret);
  await charge(s, w.m, w.customerId, '1.25');
  const replay = await chargeAgain(s);
  expect([replay.status, replay.headers['idempotent-replayed'], replay.text]).toEqual([200, 'true', w.charged.text]);
  // The pay page's fingerprint is a MAC (the body holds a card number): made under A, it still matches.
  const paid = await payAgain(s);
  expect([paid.status, paid.headers['idempotent-replayed'], paid.text]).toEqual([200, 'true', w.paid.text]);
}

it('A, then B with A as previous, reseal, then B alone: everything reads; B alone before the reseal is refused', {
  timeout: 300_000,
}, async () => {
  // 1. Written under A: a merchant (keys, bank, owner), a webhook secret, a stored card, two idempotent answers.
  let s = await serve({ REMIT_ENCRYPTION_KEY: A });
  const m = await newMerchant(s);
  w = {
    m,
    signingSecret: await webhookSecret(s, m),
    customerId: await newCustomer(s, m),
    charged: { key: 'rot-charge', text: '' },
    paid: { linkId: '', key: 'rot-pay', text: '' },
  };
  const charged = await chargeAgain(s);
  expect(charged.status).toBe(200);
  w.charged.text = charged.text;
  const link = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, amount: '10.00' },
  });
  w.paid.linkId = String(link.body.data.payment_link).split('/').pop()!;
  const paid = await payAgain(s);
  expect(paid.status).toBe(200);
  w.paid.text = paid.text;
  await s.close();

  // 2. B alone, before the reseal: refused, naming the fix.
  const refused = await runToExit('apps/server/src/main.ts', { ...env, REMIT_ENCRYPTION_KEY: B });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`fingerprint ${idA}; this process has ${idB}`);
  expect(refused.stderr).toContain(
    `If you are rotating the key, give the old one as REMIT_ENCRYPTION_KEY_PREVIOUS until \`npm run remit -- keys reseal\` reports nothing sealed with ${idA} is left.`,
  );

  // 3. B with A as previous: everything written under A reads. On Postgres the reseal runs beside it.
  const rotating = { REMIT_ENCRYPTION_KEY: B, REMIT_ENCRYPTION_KEY_PREVIOUS: A };
  s = await serve(rotating);
  await readsBack(s);
  if (testDbKind === 'pglite') await s.close();
  const run = await reseal(rotating);
  if (testDbKind === 'postgres') await s.close();
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout);
  expect(report).toMatchObject({ key_id: idB, previous_key_id: idA, left: 0, unreadable: 0, done: true });
  // Merchant key, bank account, EIN, SSN, owner's details; the webhook secret; the card; both answers; the onboarding event.
  expect(report.tables.merchants).toEqual({ resealed: 5, left: 0, unreadable: 0 });
  expect(report.tables.clients.resealed).toBe(1);
  expect(report.tables.payment_methods.resealed).toBe(1);
  expect(report.tables.idempotency_keys.resealed).toBe(2);
  expect(report.tables.events.resealed).toBe(1);
  expect(run.stderr).toBe(
    `Every value is sealed with key ${idB}; nothing sealed with the previous key (${idA}) is left. REMIT_ENCRYPTION_KEY_PREVIOUS can be removed (restart each process without it).\n`,
  );

  // 4. Run again (as after a crash): nothing left to do.
  const io = { out: '', err: '' };
  const again = await runCli(
    ['keys', 'reseal'],
    { ...env, ...rotating },
    {
      out: (t) => void (io.out += t),
      err: (t) => void (io.err += t),
    },
  );
  expect(again).toBe(0);
  const config = { out: '' };
  await runCli(['config', '--json'], { ...env, ...rotating }, { out: (t) => void (config.out += t), err: () => {} });
  expect(JSON.parse(config.out).encryption_key_previous).toBe(
    `REMIT_ENCRYPTION_KEY_PREVIOUS (fingerprint ${idA}, opens only)`,
  );
  expect(io.out).toContain('merchants: 0 resealed, 0 left\n');
  expect(io.out).not.toMatch(/[1-9]\d* resealed/);

  // 5. B alone: everything reads, the pay page's repeat included (A's MAC key was kept, sealed with B).
  s = await serve({ REMIT_ENCRYPTION_KEY: B });
  try {
    await readsBack(s);
  } finally {
    await s.close();
  }
});
