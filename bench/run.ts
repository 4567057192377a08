/**
 * `npm run bench`: throughput and p99 of the main endpoints on PGlite and Postgres, each beside its
 * ceiling measured in the same run (a bare Fastify route for the read; the endpoint's own SQL replayed
 * through the driver, without HTTP, for the writes), then webhook delivery and bundle sizes.
 * `npm run bench -- pglite` or `-- postgres` runs one database; BENCH_SECONDS sets each load's length.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { openCore } from '@remit/core';
import { buildApp } from '../apps/server/src/app.js';
import { validOnboarding } from '../apps/server/src/testing/fixtures.js';
import { createTestDatabase } from '../apps/server/src/testing/harness.js';
import { basicAuth } from '../apps/server/src/testing/http.js';
import { startProcess } from '../apps/server/src/testing/process.js';
import { reportBundles } from './bundles.js';
import { runWidgetPayBench } from './widget-pay.js';
import { reportContractBundles } from './contract-bundles.js';
import { runPayPageBench } from './pay-page.js';
import { SqlRecorder, pgDriver, pgliteDriver, replay, type Statement } from './replay.js';
import { fmt, type Figures } from './stats.js';
import { runWebhookBench } from './webhooks.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const SEED_ROWS = 10_000;
export const encryptionKey = randomBytes(32).toString('hex');

type Write = 'payLink' | 'charge' | 'refund' | 'preauthUpdate';

export interface Setup {
  auth: string;
  merchantKey: string;
  customerId: number;
  /** One completed charge per connection to refund, one preauthorization per connection to update. */
  sales: string[];
  preauths: Array<{ id: string; cents: number }>;
  recorded: Record<Write, Statement[][]>;
  listBody: string;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** Makes the data in-process (recording each write's SQL on the way), then closes the database. */
export async function setup(target: { dataDir?: string; databaseUrl?: string }): Promise<Setup> {
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
  const auth = basicAuth(creds.client_id, creds.secret_key);
  const merchantKey: string = (await call('POST', '/api/v1/onboarding', validOnboarding(), auth)).json.data.merchant_key;
  const merchantId: string = (await call('GET', '/api/v1/merchant', undefined, auth)).json.data[0].merchant_id;
  await call('POST', '/api/v1/approve-merchant', { merchant_id: merchantId }, auth);
  const customerId: number = (
    await call('POST', '/api/v1/customers/add', {
      merchant_key: merchantKey,
      first_name: 'Bench',
      email: 'bench@example.com',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123', zip: '94105' },
    }, auth)
  ).json.data.customer_id;
  const charge = (body: object) => call('POST', `/api/v1/customers/charge/${customerId}`, { merchant_key: merchantKey, ...body }, auth);
  const sales: string[] = [];
  const preauths: Setup['preauths'] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    sales.push((await charge({ amount: 9000, order_id: `bench-sale-${i}`, preAuth: false })).json.transaction_id);
    preauths.push({ id: (await charge({ amount: 100, order_id: `bench-pa-${i}`, preAuth: true })).json.transaction_id, cents: 10_000 });
  }
  await core.database.db.execute(sql`
    insert into transactions (id, merchant_id, type, payment_method, is_status, status, amount_cents, fee_cents,
      fee_rate_e7, net_cents, order_createdfrom, auth_code, card_brand, last_four, order_id, created_at, updated_at)
    select 'txn_seed' || g, ${merchantId}, 'Sale', 'card', 2, 'completed', 1000 + g, 59, 29000000, 941 + g, 'API',
      '123456', 'Visa', '4242', 'seed-' || g, now() - g * interval '1 minute', now()
    from generate_series(1, ${SEED_ROWS}) g`);
  // What autovacuum (Postgres) or the maintenance timer (PGlite) would have done by now.
  await core.database.db.execute(sql`vacuum analyze transactions`);

  const record = (fn: () => Promise<unknown>) => recorder.record(fn);
  const recorded: Setup['recorded'] = {
    payLink: [await record(() => call('POST', '/api/v1/pay-link', { merchant_key: merchantKey, amount: '25.00' }, auth))],
    charge: [await record(() => charge({ amount: 12.5, order_id: 'bench-charge', preAuth: false }))],
    refund: [],
    preauthUpdate: [],
  };
  for (let i = 0; i < CONNECTIONS; i++) {
    recorded.refund.push(
      await record(() => call('POST', '/api/v1/order/sales-return', { merchant_key: merchantKey, transaction_id: sales[i], amount: '0.01' }, auth)),
    );
    const pa = preauths[i]!;
    recorded.preauthUpdate.push(
      await record(() =>
        call('POST', '/api/v1/preauth/update', {
          merchant_key: merchantKey,
          transaction_id: pa.id,
          last_authorized_amount: dollars(pa.cents),
          new_authorized_amount: dollars(pa.cents + 1),
          order_id: `bench-pa-${i}`,
        }, auth),
      ),
    );
    pa.cents += 1;
  }
  const listBody = (await call('GET', `/api/v1/merchant/transactions?merchant_key=${merchantKey}`, undefined, auth)).body;
  await app.close();
  await core.close();
  return { auth, merchantKey, customerId, sales, preauths, recorded, listBody };
}

async function load(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts };
}

/**
 * Lends each request in flight a row of its own (its own sale to refund, its own preauthorization),
 * given back when the answer comes, so requests never queue on one another's row.
 */
function rowPool(build: (i: number) => object, after?: (i: number, ok: boolean) => void) {
  const free = Array.from({ length: CONNECTIONS }, (_, i) => i);
  return [
    {
      setupRequest: (req: autocannon.Request, context: { i?: number }) => {
        context.i = free.pop() ?? Math.floor(Math.random() * CONNECTIONS);
        return { ...req, body: JSON.stringify(build(context.i)) };
      },
      onResponse: (status: number, _body: string, context: { i?: number }) => {
        after?.(context.i!, status === 200);
        free.push(context.i!);
      },
    },
  ] as unknown as autocannon.Request[];
}

export type Route = Write | 'list';
export const ROUTES: Route[] = ['payLink', 'charge', 'refund', 'preauthUpdate', 'list'];

/** One load per route, against the server at `base`; each call runs the route's load once. */
export function routeLoads(base: string, s: Setup): Record<Route, () => Promise<Figures>> {
  const headers = { authorization: s.auth, 'content-type': 'application/json' };
  const post = (path: string) => ({ url: `${base}/api/v1${path}`, method: 'POST' as const, headers });
  let order = 0;
  const next: number[] = [];
  return {
    payLink: () => load({ ...post('/pay-link'), body: JSON.stringify({ merchant_key: s.merchantKey, amount: '25.00' }) }),
    charge: () =>
      load({
        ...post(`/customers/charge/${s.customerId}`),
        requests: rowPool(() => ({ merchant_key: s.merchantKey, amount: 12.5, order_id: `c-${process.pid}-${order++}`, preAuth: false })),
      }),
    refund: () =>
      load({
        ...post('/order/sales-return'),
        requests: rowPool((i) => ({ merchant_key: s.merchantKey, transaction_id: s.sales[i], amount: '0.01' })),
      }),
    preauthUpdate: () =>
      load({
        ...post('/preauth/update'),
        requests: rowPool(
          (i) => {
            const pa = s.preauths[i]!;
            // Up and down by a cent in turn, so the amount stays put over the run.
            next[i] = pa.cents + (pa.cents % 2 === 0 ? 1 : -1);
            return {
              merchant_key: s.merchantKey,
              transaction_id: pa.id,
              last_authorized_amount: dollars(pa.cents),
              new_authorized_amount: dollars(next[i]!),
              order_id: `bench-pa-${i}`,
            };
          },
          (i, ok) => {
            if (ok) s.preauths[i]!.cents = next[i]!;
          },
        ),
      }),
    list: () =>
      load({
        url: `${base}/api/v1/merchant/transactions`,
        method: 'GET',
        headers,
        body: JSON.stringify({ merchant_key: s.merchantKey, limit: '20', pageNumber: 0 }),
      }),
  };
}

async function httpFigures(base: string, s: Setup): Promise<Record<string, Figures>> {
  const loads = routeLoads(base, s);
  const out: Record<string, Figures> = {};
  for (const r of ROUTES) out[r] = await loads[r]();
  return out;
}

async function bareFigures(listBody: string): Promise<Figures> {
  const bodyFile = join(tmpdir(), `remit-bare-${process.pid}.json`);
  writeFileSync(bodyFile, listBody);
  const bare = await startProcess('bench/bare-server.ts', { BARE_BODY_FILE: bodyFile }, { readyPath: '/bare' });
  try {
    return await load({ url: `${bare.base}/bare` });
  } finally {
    await bare.stop();
    rmSync(bodyFile, { force: true });
  }
}

async function benchDatabase(kind: 'pglite' | 'postgres') {
  const db = kind === 'postgres' ? await createTestDatabase() : null;
  const dataDir = db ? undefined : mkdtempSync(join(tmpdir(), 'remit-bench-'));
  const databaseUrl = db?.url;
  try {
    const s = await setup({ dataDir, databaseUrl });
    const server = await startProcess('apps/server/src/main.ts', {
      ...serverEnv(),
      REMIT_ENCRYPTION_KEY: encryptionKey,
      // One client sends thousands of requests a second here: raise its limit (the counting still runs).
      REMIT_RATE_LIMIT_API_PER_CLIENT: '1000000000/1m',
      ...(dataDir ? { REMIT_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: databaseUrl! }),
    });
    let http: Record<string, Figures>;
    try {
      http = await httpFigures(server.base, s);
    } finally {
      await server.stop();
    }
    const bare = await bareFigures(s.listBody);
    const driver = dataDir ? pgliteDriver(new PGlite(dataDir)) : pgDriver(databaseUrl!);
    const ceilings = {} as Record<Write, Figures>;
    try {
      for (const w of ['payLink', 'charge', 'refund', 'preauthUpdate'] as const) {
        ceilings[w] = await replay(driver, s.recorded[w], CONNECTIONS, SECONDS);
      }
    } finally {
      await driver.close();
    }
    report(kind, http, bare, ceilings, s.recorded);
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  }
}

function report(kind: string, http: Record<string, Figures>, bare: Figures, ceilings: Record<Write, Figures>, recorded: Setup['recorded']) {
  const pct = (a: Figures, b: Figures) => `${((a.rps / b.rps) * 100).toFixed(0)}% of ceiling`;
  console.log(`\n== ${kind} (${CONNECTIONS} connections, ${SECONDS} s each) ==`);
  const rows: Array<[string, Write]> = [
    ['POST /pay-link', 'payLink'],
    ['POST /customers/charge/{id}', 'charge'],
    ['POST /order/sales-return', 'refund'],
    ['POST /preauth/update', 'preauthUpdate'],
  ];
  for (const [name, w] of rows) {
    console.log(`${name.padEnd(30)} ${fmt(http[w]!)}   ${pct(http[w]!, ceilings[w])} (goal ≥ 50%)`);
    console.log(`  ceiling: its ${recorded[w][0]!.length} statements via driver ${fmt(ceilings[w])}`);
  }
  console.log(`${'GET /merchant/transactions'.padEnd(30)} ${fmt(http.list!)}   ${pct(http.list!, bare)} (goal ≥ 25%)`);
  console.log(`  ceiling: bare Fastify route   ${fmt(bare)}`);
  const p99s = Object.values(http).map((f) => f.p99);
  console.log(`  p99 goal < 20 ms at ${CONNECTIONS} connections: ${p99s.every((p) => p < 20) ? 'met' : 'not met'}`);
}

/** `BENCH_SERVER_ENV='A=1 B=2'`: extra environment for the server under load (to compare settings side by side). */
export function serverEnv(spec = process.env.BENCH_SERVER_ENV): Record<string, string> {
  const pairs = (spec ?? '').split(/\s+/).filter(Boolean);
  // The per-client API limit (6000/min by default) would cap the load at 100 req/s: raised, not off,
  // so the limiter's own cost stays in the figures.
  return {
    REMIT_RATE_LIMIT_API_PER_CLIENT: '100000000/1m',
    ...Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)])),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  const databases = (['pglite', 'postgres'] as const).filter((d) => !only || only === d);
  for (const kind of databases) await benchDatabase(kind);
  // `npm run bench -- bundles` prints only the bundle sizes.
  // BENCH_ROUTES_ONLY=1 stops after the routes (for side-by-side comparisons of the API alone).
  if (process.env.BENCH_ROUTES_ONLY) process.exit(0);
  if (databases.length) {
    console.log('\n== webhook delivery (local receiver) ==');
    await runWebhookBench([...databases]);
  }
  reportBundles();
  await reportContractBundles();
  await runPayPageBench();
  await runWidgetPayBench();
}
