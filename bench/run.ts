/**
 * `npm run bench`: throughput and p99 of the main endpoints on PGlite and Postgres, each beside its
 * ceiling measured in the same run (a bare Fastify route for the read; the endpoint's own SQL replayed
 * through the driver, without HTTP, for the writes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openCore } from '@remit/core';
import { basicAuth as basicAuthHeader } from '@remit/sdk';
import { buildApp } from '../apps/server/src/app.js';
import { validOnboarding } from '../apps/server/src/testing/fixtures.js';
import { SqlRecorder, pgDriver, pgliteDriver, replay, type Driver, type Statement } from './replay.js';
import { freePort, startProcess, stopProcess } from './server-process.js';
import { fmt, type Figures } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const SEED_ROWS = 10_000;
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const encryptionKey = randomBytes(32).toString('hex');

interface Setup {
  auth: string;
  merchantKey: string;
  customerId: number;
  recorded: Record<'payLink' | 'charge', Statement[]>;
  listBody: string;
}

async function setup(target: { dataDir?: string; databaseUrl?: string }): Promise<Setup> {
  const recorder = new SqlRecorder();
  const core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: Buffer.from(encryptionKey, 'hex'),
    ...target,
    logger: recorder,
  });
  const app = await buildApp(core);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, auth?: string) => {
    const res = await app.inject({ method, url, payload, headers: auth ? { authorization: auth } : {} });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { json: res.json(), body: res.body };
  };
  const creds = (await call('POST', '/portal/api/credentials')).json;
  const auth = basicAuthHeader(creds.client_id, creds.secret_key);
  const onboarded = (await call('POST', '/api/v1/onboarding', validOnboarding(), auth)).json.data;
  const merchants = (await call('GET', '/api/v1/merchant', undefined, auth)).json.data;
  const merchantId = merchants[0].merchant_id as string;
  await call('POST', '/api/v1/approve-merchant', { merchant_id: merchantId }, auth);
  const customer = (
    await call('POST', '/api/v1/customers/add', {
      merchant_key: onboarded.merchant_key,
      first_name: 'Bench',
      email: 'bench@example.com',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123', zip: '94105' },
    }, auth)
  ).json.data;
  await core.database.db.execute(
    (await import('drizzle-orm')).sql`
      insert into transactions (id, merchant_id, type, payment_method, is_status, status, amount_cents, fee_cents,
        fee_rate_e7, net_cents, order_createdfrom, auth_code, card_brand, last_four, order_id, created_at, updated_at)
      select 'txn_seed' || g, ${merchantId}, 'Sale', 'card', 2, 'completed', 1000 + g, 59, 29000000, 941 + g, 'API',
        '123456', 'Visa', '4242', 'seed-' || g, now() - g * interval '1 minute', now()
      from generate_series(1, ${SEED_ROWS}) g`,
  );
  const payLinkBody = { merchant_key: onboarded.merchant_key, amount: '25.00', order_id: 'bench-order' };
  const chargeBody = { merchant_key: onboarded.merchant_key, amount: 12.5, order_id: 'bench-charge', preAuth: false };
  const recorded = {
    payLink: await recorder.record(() => call('POST', '/api/v1/pay-link', payLinkBody, auth)),
    charge: await recorder.record(() => call('POST', `/api/v1/customers/charge/${customer.customer_id}`, chargeBody, auth)),
  };
  const listBody = (await call('GET', `/api/v1/merchant/transactions?merchant_key=${onboarded.merchant_key}`, undefined, auth)).body;
  await app.close();
  await core.close();
  return { auth, merchantKey: onboarded.merchant_key, customerId: customer.customer_id, recorded, listBody };
}

async function load(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const bad = r.non2xx + r.errors + r.timeouts;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: bad };
}

async function benchDatabase(kind: 'pglite' | 'postgres') {
  let dataDir: string | undefined;
  let databaseUrl: string | undefined;
  let dropDb = async () => {};
  if (kind === 'pglite') {
    dataDir = mkdtempSync(join(tmpdir(), 'remit-bench-'));
  } else {
    const name = `remit_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  try {
    const s = await setup({ dataDir, databaseUrl });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await startProcess(
      'apps/server/src/main.ts',
      {
        PORT: String(port),
        REMIT_ENCRYPTION_KEY: encryptionKey,
        ...(dataDir ? { REMIT_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: databaseUrl! }),
      },
      `${base}/healthz`,
    );
    const headers = { authorization: s.auth, 'content-type': 'application/json' };
    let order = 0;
    const results: Record<string, Figures> = {};
    try {
      results.payLink = await load({
        url: `${base}/api/v1/pay-link`,
        method: 'POST',
        headers,
        body: JSON.stringify({ merchant_key: s.merchantKey, amount: '25.00' }),
      });
      results.charge = await load({
        url: `${base}/api/v1/customers/charge/${s.customerId}`,
        method: 'POST',
        headers,
        setupClient: (client) => {
          client.setBody(JSON.stringify({ merchant_key: s.merchantKey, amount: 12.5, order_id: `c-${order++}` }));
        },
      } as autocannon.Options);
      results.list = await load({
        url: `${base}/api/v1/merchant/transactions`,
        method: 'GET',
        headers,
        body: JSON.stringify({ merchant_key: s.merchantKey, limit: '20', pageNumber: 0 }),
      });
    } finally {
      await stopProcess(server);
    }

    const bodyFile = join(tmpdir(), `remit-bare-${process.pid}.json`);
    writeFileSync(bodyFile, s.listBody);
    const barePort = await freePort();
    const bare = await startProcess('bench/bare-server.ts', { PORT: String(barePort), BARE_BODY_FILE: bodyFile }, `http://127.0.0.1:${barePort}/bare`);
    try {
      results.bare = await load({ url: `http://127.0.0.1:${barePort}/bare` });
    } finally {
      await stopProcess(bare);
    }

    const driver: Driver = dataDir ? pgliteDriver(new PGlite(dataDir)) : pgDriver(databaseUrl!);
    try {
      results.payLinkSql = await replay(driver, s.recorded.payLink, CONNECTIONS, SECONDS);
      results.chargeSql = await replay(driver, s.recorded.charge, CONNECTIONS, SECONDS);
    } finally {
      await driver.close();
    }
    report(kind, results, s.recorded);
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropDb();
  }
}

function report(kind: string, r: Record<string, Figures>, recorded: Setup['recorded']) {
  const ratio = (a: Figures, b: Figures) => `${((a.rps / b.rps) * 100).toFixed(0)}% of ceiling`;
  console.log(`\n== ${kind} (${CONNECTIONS} connections, ${SECONDS} s each) ==`);
  console.log(`POST /pay-link                  ${fmt(r.payLink!)}   ${ratio(r.payLink!, r.payLinkSql!)} (goal ≥ 50%)`);
  console.log(`  ceiling: its ${recorded.payLink.length} statements via driver ${fmt(r.payLinkSql!)}`);
  console.log(`POST /customers/charge/{id}     ${fmt(r.charge!)}   ${ratio(r.charge!, r.chargeSql!)} (goal ≥ 50%)`);
  console.log(`  ceiling: its ${recorded.charge.length} statements via driver ${fmt(r.chargeSql!)}`);
  console.log(`GET /merchant/transactions      ${fmt(r.list!)}   ${ratio(r.list!, r.bare!)} (goal ≥ 25%)`);
  console.log(`  ceiling: bare Fastify route    ${fmt(r.bare!)}`);
  const p99s = [r.payLink!, r.charge!, r.list!].map((f) => f.p99);
  console.log(`  p99 goal < 20 ms: ${p99s.every((p) => p < 20) ? 'met' : 'NOT met'} (${p99s.map((p) => p.toFixed(1)).join(' / ')} ms)`);
}

const only = process.argv[2];
for (const kind of ['pglite', 'postgres'] as const) {
  if (!only || only === kind) await benchDatabase(kind);
}
await import('./bundles.js').then((m) => m.reportBundles());
