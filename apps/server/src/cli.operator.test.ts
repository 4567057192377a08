import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore, type Core } from '@remit/core';
import { buildApp } from './app.js';
import { runCli } from './cli.js';
import { coreOptions, loadConfig } from './config.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { TEST_CARD } from './testing/payments.js';
import { captureIo } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

/** The CLI's configuration: a fresh Postgres database, or a PGlite data directory, with one key. */
let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const dataDir = await seededDataDir('remit-cli-op');
  env = { REMIT_DATA_DIR: dataDir, REMIT_ENCRYPTION_KEY: 'b'.repeat(64) };
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_cli_op') : null;
  if (db) env.DATABASE_URL = db.url;
  drop = async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => drop());

async function cli(...args: string[]) {
  const io = captureIo();
  const code = await runCli(args, env, io);
  return { code, out: io.stdout, err: io.stderr, json: () => JSON.parse(io.stdout) };
}

interface Running {
  base: string;
  core: Core;
  close(): Promise<void>;
}

/** A server on the CLI's database (on PGlite, only while no command runs: one process owns the folder). */
async function serve(): Promise<Running> {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { base, core, close: async () => (await app.close(), await core.close()) };
}

async function withServer<T>(fn: (s: Running) => Promise<T>): Promise<T> {
  const s = await serve();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const api = (s: Running, auth: string, method: string, path: string, json?: object) =>
  send<any>({ method, url: `${s.base}/api/v1${path}`, headers: { authorization: auth }, json });

describe('remit operator commands', () => {
  let clientId: string;
  let secret: string;
  let auth: string;
  let approved: string;
  let pending: string;
  let approvedKey: string;
  let customer: number;

  beforeAll(async () => {
    const made = await cli('credentials', 'create', '--json');
    expect(made.code).toBe(0);
    ({ client_id: clientId, secret_key: secret } = made.json());
    auth = basicAuth(clientId, secret);
    await withServer(async (s) => {
      const a = await api(s, auth, 'POST', '/onboarding', validOnboarding({ business_name: 'Acme Bakery' }));
      const b = await api(s, auth, 'POST', '/onboarding', validOnboarding({ business_name: 'Pending Books' }));
      expect([a.status, b.status]).toEqual([201, 201]);
      approvedKey = a.body.data.merchant_key;
      const list = (await api(s, auth, 'GET', '/merchant')).body.data as Array<{
        merchant_id: string;
        public_data: { public_key: string };
      }>;
      approved = list.find((m) => m.public_data.public_key === a.body.data.public_key)!.merchant_id;
      pending = list.find((m) => m.public_data.public_key === b.body.data.public_key)!.merchant_id;
      expect((await api(s, auth, 'POST', '/approve-merchant', { merchant_id: approved })).status).toBe(200);
      const c = await api(s, auth, 'POST', '/customers/add', {
        merchant_key: approvedKey,
        first_name: 'Ada',
        card: TEST_CARD,
      });
      customer = c.body.data.customer_id;
    });
  }, 120_000);

  const chargeIt = (s: Running, order_id: string) =>
    api(s, auth, 'POST', `/customers/charge/${customer}`, { merchant_key: approvedKey, amount: '10.00', order_id });

  it('merchants list: every merchant with its status and client; --status filters; text is one line each', async () => {
    const all = await cli('merchants', 'list', '--json');
    expect(all.code).toBe(0);
    const byId = Object.fromEntries(all.json().map((m: any) => [m.merchant_id, m]));
    expect(byId[approved]).toMatchObject({ client_id: clientId, status: 'approved', businessname: 'Acme Bakery' });
    expect(byId[pending]).toMatchObject({
      client_id: clientId,
      status: 'pending',
      businessname: 'Pending Books',
      approved_at: null,
    });
    expect(Object.keys(byId[approved]).sort()).toEqual([
      'approved_at',
      'businessname',
      'client_id',
      'email',
      'join_date',
      'merchant_id',
      'status',
    ]);

    const onlyPending = await cli('merchants', 'list', '--status', 'pending', '--json');
    expect(onlyPending.json().map((m: any) => m.merchant_id)).toEqual([pending]);

    const text = await cli('merchants', 'list');
    expect(text.out.trim().split('\n')).toHaveLength(2);
    expect(text.out).toMatch(
      new RegExp(`^${approved}\\s+approved\\s+${clientId}\\s+\\d{4}-\\d\\d-\\d\\d\\s+Acme Bakery <`, 'm'),
    );
    expect(text.err).toBe('2 merchants.\n');

    const bad = await cli('merchants', 'list', '--status', 'closed');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--status must be one of pending, approved, suspended');
  });

  it('merchants show: one merchant with its transaction count; an unknown id exits 1 saying so', async () => {
    const shown = await cli('merchants', 'show', approved, '--json');
    expect(shown.code).toBe(0);
    expect(shown.json()).toMatchObject({
      merchant_id: approved,
      client_id: clientId,
      status: 'approved',
      transactions: 0,
      last_transaction_at: null,
    });
    expect(shown.out).not.toContain('mk_');
    const text = await cli('merchants', 'show', approved);
    expect(text.out).toContain(`merchant_id: ${approved}\n`);
    expect(text.out).toContain('status: approved\n');

    const unknown = await cli('merchants', 'show', 'm_nosuchmerchant');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('remit: No merchant has the id m_nosuchmerchant.\n');
    expect((await cli('merchants', 'show')).code).toBe(2);
  });

  it('merchants suspend: payments are refused with merchant_suspended, approval cannot lift it; reinstate lets them through again', {
    timeout: 60_000,
  }, async () => {
    const suspended = await cli('merchants', 'suspend', approved);
    expect(suspended.code).toBe(0);
    expect(suspended.out).toContain('status: suspended\n');
    expect(suspended.err).toContain(`Suspended ${approved}`);
    expect((await cli('merchants', 'suspend', approved)).err).toBe(`${approved} was already suspended.\n`);

    await withServer(async (s) => {
      const before = (await s.core.ctx.db.execute(sql`select count(*)::int as n from transactions`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      const refused = await chargeIt(s, 'while-suspended');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        result: false,
        code: 'merchant_suspended',
        message: 'This merchant is suspended: payments are refused until the operator reinstates it.',
      });
      const after = (await s.core.ctx.db.execute(sql`select count(*)::int as n from transactions`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
      const owner = await api(s, auth, 'GET', `/merchant/${approved}`);
      expect(owner.body.data.status).toBe('suspended');
      const approve = await api(s, auth, 'POST', '/approve-merchant', { merchant_id: approved });
      expect(approve.status).toBe(400);
      expect(approve.body.code).toBe('merchant_suspended');
    });

    const back = await cli('merchants', 'reinstate', approved, '--json');
    expect(back.code).toBe(0);
    expect(back.json()).toMatchObject({ merchant_id: approved, status: 'approved' });
    expect((await cli('merchants', 'reinstate', approved)).err).toBe(
      `${approved} was not suspended; nothing changed.\n`,
    );
    // A merchant suspended before its approval goes back to pending.
    await cli('merchants', 'suspend', pending);
    expect((await cli('merchants', 'reinstate', pending, '--json')).json().status).toBe('pending');

    await withServer(async (s) => {
      expect((await chargeIt(s, 'after-reinstate')).status).toBe(200);
    });
    expect((await cli('merchants', 'show', approved, '--json')).json().transactions).toBe(1);
  });

  it('credentials rotate: prints the new secret once; the old one gets 401, the new one works', {
    timeout: 60_000,
  }, async () => {
    const rotated = await cli('credentials', 'rotate', clientId, '--json');
    expect(rotated.code).toBe(0);
    const fresh = rotated.json();
    expect(fresh.client_id).toBe(clientId);
    expect(fresh.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(fresh.secret_key).not.toBe(secret);
    await withServer(async (s) => {
      expect((await api(s, auth, 'GET', '/merchant')).status).toBe(401);
      expect((await api(s, basicAuth(clientId, fresh.secret_key), 'GET', '/merchant')).status).toBe(200);
    });
    secret = fresh.secret_key;
    auth = basicAuth(clientId, secret);

    const text = await cli('credentials', 'rotate', clientId);
    expect(text.out).toMatch(new RegExp(`^client_id:  ${clientId}\\nsecret_key: sk_test_[0-9A-Za-z]{32}\\n$`));
    expect(text.err).toContain('The old secret key no longer works');
    secret = text.out.split('secret_key: ')[1]!.trim();
    auth = basicAuth(clientId, secret);

    const unknown = await cli('credentials', 'rotate', 'cl_nosuchclient');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('remit: No client has the id cl_nosuchclient.\n');
  });

  it('purge: deletes what is past its retention now and prints the count per table', async () => {
    await withServer(async (s) => {
      await s.core.ctx.db.execute(sql`insert into idempotency_keys (client_id, key, request_hash, status_code, response_body, created_at)
        values (${clientId}, 'old', 'h', 200, 'x', now() - interval '25 hours'), (${clientId}, 'new', 'h', 200, 'x', now())`);
    });
    const purged = await cli('purge', '--json');
    expect(purged.code).toBe(0);
    expect(purged.json()).toMatchObject({ idempotency_keys: 1, events: 0, messages: 0 });
    const text = await cli('purge');
    expect(text.out).toContain('idempotency_keys: 0\n');
  });

  it('config: the configuration in force, defaults resolved, no secret in it', async () => {
    const secrets = {
      REMIT_METRICS_TOKEN: 'metrics-token-secret-123',
      SMTP_URL: 'smtp://mailer:smtp-password-456@mail.example:587',
      REMIT_RETENTION_EVENTS_DAYS: '90',
      REMIT_RETENTION_MESSAGES_DAYS: 'off',
    };
    const io = captureIo();
    const dbUrl = 'postgres://remit:db-password-789@db.example:5432/remit';
    expect(await runCli(['config'], { ...env, ...secrets, DATABASE_URL: dbUrl }, io)).toBe(0);
    const out = io.stdout;
    for (const secret of ['metrics-token-secret-123', 'smtp-password-456', 'db-password-789', 'b'.repeat(64)])
      expect(out).not.toContain(secret);
    expect(out).toContain('environment: sandbox\n');
    expect(out).toContain('database: postgres://remit:***@db.example:5432/remit\n');
    expect(out).toContain('email: smtp://mailer:***@mail.example:587 from Remit <no-reply@remit.local>\n');
    expect(out).toContain('metrics_token: ***\n');
    expect(out).toMatch(/encryption_key: REMIT_ENCRYPTION_KEY \(fingerprint [0-9a-f]{12}\)\n/);
    expect(out).toContain(
      'retention:\n  events: 90 days\n  messages: off (kept forever)\n  sessions: 7 days\n  csp_reports: 90 days\n  purge_interval_ms: 3600000\n',
    );
    expect(out).toMatch(/rate_limits:\n( {2}\w+: .+\n)+/);

    const json = captureIo();
    expect(await runCli(['config', '--json'], env, json)).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      environment: 'sandbox',
      processor: 'simulator',
      email: 'sandbox inbox',
      metrics_token: 'unset',
    });
  });
});

describe.runIf(testDbKind === 'postgres')('beside a running server (Postgres)', () => {
  it('a rotated secret stops working at once in a server that had it cached; a suspension is seen at the next payment', {
    timeout: 60_000,
  }, async () => {
    const { client_id, secret_key } = (await cli('credentials', 'create', '--json')).json();
    const auth = basicAuth(client_id, secret_key);
    const s = await serve();
    try {
      const m = await api(s, auth, 'POST', '/onboarding', validOnboarding());
      const id = (await api(s, auth, 'GET', '/merchant')).body.data[0].merchant_id;
      await api(s, auth, 'POST', '/approve-merchant', { merchant_id: id });
      const c = await api(s, auth, 'POST', '/customers/add', {
        merchant_key: m.body.data.merchant_key,
        first_name: 'Ada',
        card: TEST_CARD,
      });
      const pay = () =>
        api(s, auth, 'POST', `/customers/charge/${c.body.data.customer_id}`, {
          merchant_key: m.body.data.merchant_key,
          amount: '1.00',
          order_id: `o-${Math.random()}`,
        });
      expect((await pay()).status).toBe(200);

      expect((await cli('merchants', 'suspend', id)).code).toBe(0);
      expect((await pay()).body.code).toBe('merchant_suspended');
      expect((await cli('merchants', 'reinstate', id)).code).toBe(0);
      expect((await pay()).status).toBe(200);

      const rotated = (await cli('credentials', 'rotate', client_id, '--json')).json();
      expect((await api(s, auth, 'GET', '/merchant')).status).toBe(401);
      expect((await api(s, basicAuth(client_id, rotated.secret_key), 'GET', '/merchant')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
