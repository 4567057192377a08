/**
 * The bench's data, made in-process through the real routes (app.inject), recording on the way the
 * statements one request of each route sends: the ceilings replay them.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { openCore } from '@remit/core';
import { createTestDatabase } from '@remit/core/testing';
import { buildApp } from '../apps/server/src/app.js';
import { validOnboarding } from '../apps/server/src/testing/fixtures.js';
import { basicAuth } from '../apps/server/src/testing/http.js';
import { startProcess } from '../apps/server/src/testing/process.js';
import { SqlRecorder, type Recording } from './replay.js';
import { serverEnv } from './server-env.js';

/** 50; `BENCH_CONNECTIONS` changes it for a profile (a few connections: samples show CPU, not waits for it). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const SEED_ROWS = 10_000;
/** Rows a seeding statement inserts at most (see setup's inBatches). */
const SEED_BATCH = 500;
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/**
 * Rows a consuming route (void, capture, preauth void) takes: half for the HTTP load with its warm-up,
 * half for the ceiling, each enough at 6,000 a second (ceilings reach about 4,000 on Postgres).
 */
export const VOID_ROWS = Number(process.env.BENCH_VOID_ROWS ?? 2 * 6000 * (SECONDS + WARMUP_SECONDS));
const PG_SOCKET_DIR = '/var/run/postgresql';
/**
 * The URL the server and the ceiling reach Postgres by: its Unix socket when it has one in
 * /var/run/postgresql (the README's advice for Postgres on the same host: in one pair of runs every route answered 7-63%
 * more requests a second than over TCP to 127.0.0.1), else TCP. BENCH_PG_SOCKET=<directory> names another; empty, TCP.
 */
export function benchDatabaseUrl(
  url: string,
  dir = process.env.BENCH_PG_SOCKET ?? (existsSync(`${PG_SOCKET_DIR}/.s.PGSQL.5432`) ? PG_SOCKET_DIR : ''),
) {
  return dir ? url.replace(/@[^/]+\//, `@${encodeURIComponent(dir)}/`) : url;
}
export const encryptionKey = randomBytes(32).toString('hex');

/** A throwaway database for a bench: a PGlite data directory or a Postgres database (by its socket when it has one). */
export interface BenchDatabase {
  kind: 'pglite' | 'postgres';
  /** What `openCore`/`connectDatabase` take: one of the two. */
  target: { dataDir?: string; databaseUrl?: string };
  /** A new database holding what this one holds (none may be open on this one meanwhile). */
  copy(): Promise<BenchDatabase>;
  /** Removes the directory or drops the database. */
  drop(): Promise<void>;
}

export async function benchDatabase(
  kind: 'pglite' | 'postgres',
  opts: { socket?: boolean; from?: string } = {},
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'remit-bench-'));
    if (opts.from) cpSync(opts.from, dataDir, { recursive: true });
    return {
      kind,
      target: { dataDir },
      copy: () => benchDatabase(kind, { ...opts, from: dataDir }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const db = await createTestDatabase('remit_bench', opts.from ? { copyOf: opts.from } : 'migrated');
  return {
    kind,
    target: { databaseUrl: opts.socket === false ? db.url : benchDatabaseUrl(db.url) },
    copy: () => benchDatabase(kind, { ...opts, from: db.name }),
    drop: () => db.drop(),
  };
}

/**
 * The server as its own process on `db`, with the bench's settings (`serverEnv`) and this run's
 * encryption key; `env` adds to them. `root`: another checkout's server (a side-by-side comparison).
 */
export function startBenchServer(db: BenchDatabase, env: Record<string, string> = {}, root?: string) {
  return startProcess(root ? join(root, 'apps/server/src/main.ts') : 'apps/server/src/main.ts', {
    ...serverEnv(),
    REMIT_ENCRYPTION_KEY: encryptionKey,
    ...(db.target.dataDir
      ? { REMIT_DATA_DIR: db.target.dataDir, DATABASE_URL: '' }
      : { DATABASE_URL: db.target.databaseUrl! }),
    ...env,
  });
}

/** The hot routes, in the order they are loaded. */
export const ROUTES = [
  'payLink',
  'charge',
  'refund',
  'void',
  'preauthUpdate',
  'capture',
  'preauthVoid',
  'get',
  'list',
] as const;
export type Route = (typeof ROUTES)[number];

export interface Setup {
  auth: string;
  merchantKey: string;
  customerId: number;
  /** One completed charge per connection to refund, one preauthorization per connection to update. */
  sales: string[];
  preauths: Array<{ id: string; cents: number }>;
  /** A second merchant's completed sales, each voided once: the first half for HTTP, the rest for the ceiling. */
  voidMerchantKey: string;
  voidable: string[];
  /** The void merchant's open preauthorizations, each captured (or voided) once, halves as `voidable`. */
  capturable: string[];
  preauthVoidable: string[];
  /** A transaction of the list to read alone. */
  readId: string;
  recorded: Record<Route, Recording[]>;
  /** Ids of rows that existed before the recordings: a replay keeps them (see ReplayOptions.keep). */
  keep: Set<string>;
}

export const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The core in this process on the bench's database, as the server would open it (sandbox, this run's key). */
export const openBenchCore = (target: BenchDatabase['target'], opts: Partial<Parameters<typeof openCore>[0]> = {}) =>
  openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: Buffer.from(encryptionKey, 'hex'),
    ...target,
    ...opts,
  });

/** The API in-process (`app.inject`): a call that throws unless the answer is 2xx, and an approved merchant made through the routes. */
export function inProcessApi(app: Awaited<ReturnType<typeof buildApp>>) {
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    auth?: string,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url,
      payload,
      headers: { ...headers, ...(auth ? { authorization: auth } : {}) },
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { json: res.json(), body: res.body };
  };
  const merchant = async (auth: string, name: string) => {
    const { merchant_key, public_key } = (
      await call('POST', '/api/v1/onboarding', validOnboarding({ business_name: name }), auth)
    ).json.data;
    const list = (await call('GET', '/api/v1/merchant', undefined, auth)).json.data as Array<{
      merchant_id: string;
      public_data: { public_key: string };
    }>;
    const id = list.find((m) => m.public_data.public_key === public_key)!.merchant_id;
    await call('POST', '/api/v1/approve-merchant', { merchant_id: id }, auth);
    return { key: merchant_key as string, id };
  };
  return { call, merchant };
}

/** Makes the data in-process (recording each route's SQL on the way), then closes the database. */
export async function setup(target: { dataDir?: string; databaseUrl?: string }): Promise<Setup> {
  const recorder = new SqlRecorder();
  const core = await openBenchCore(target, { logger: recorder, onStatement: recorder.onStatement });
  const app = await buildApp(core);
  const { call, merchant: approvedMerchant } = inProcessApi(app);
  const creds = (await call('POST', '/portal/api/credentials')).json;
  const auth = basicAuth(creds.client_id, creds.secret_key);
  const merchant = (name: string) => approvedMerchant(auth, name);
  const main = await merchant('Bench Shop');
  const voids = await merchant('Bench Voids');
  const merchantKey = main.key;
  const customerId: number = (
    await call(
      'POST',
      '/api/v1/customers/add',
      {
        merchant_key: merchantKey,
        first_name: 'Bench',
        email: 'bench@example.com',
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123', zip: '94105' },
      },
      auth,
    )
  ).json.data.customer_id;
  const charge = (body: object) =>
    call('POST', `/api/v1/customers/charge/${customerId}`, { merchant_key: merchantKey, ...body }, auth);
  const sales: string[] = [];
  const preauths: Setup['preauths'] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    sales.push((await charge({ amount: 9000, order_id: `bench-sale-${i}`, preAuth: false })).json.transaction_id);
    preauths.push({
      id: (await charge({ amount: 100, order_id: `bench-pa-${i}`, preAuth: true })).json.transaction_id,
      cents: 10_000,
    });
  }
  /**
   * Inserts rows `from`..`to` in statements of SEED_BATCH: the count triggers bump one minute's row per
   * insert, and in one statement its versions pile up until the commit (each lookup walks all of them),
   * so 84,000 rows of one minute in one statement took minutes.
   */
  const inBatches = async (rows: number, insert: (from: number, to: number) => SQL) => {
    for (let from = 0; from < rows; from += SEED_BATCH)
      await core.database.db.execute(insert(from, Math.min(rows, from + SEED_BATCH) - 1));
  };
  const seed = (merchantId: string, prefix: string, rows: number, age: string) =>
    inBatches(
      rows,
      (from, to) => sql`
      insert into transactions (id, merchant_id, type, payment_method, is_status, status, amount_cents, fee_cents,
        fee_rate_e7, net_cents, order_createdfrom, auth_code, card_brand, last_four, order_id, created_at, updated_at)
      select ${prefix} || g, ${merchantId}, 'Sale', 'card', 2, 'completed', 1000 + g, 59, 29000000, 941 + g, 'API',
        '123456', 'Visa', '4242', 'seed-' || g, now() - g * ${sql.raw(`interval '${age}'`)}, now()
      from generate_series(${from}::int, ${to}::int) g`,
    );
  await seed(main.id, 'txn_seed', SEED_ROWS, '1 minute');
  // Voidable: completed today, so not settled (created a millisecond apart, all after the last cutoff).
  await seed(voids.id, 'txn_void', VOID_ROWS + 1, '1 millisecond');
  // Open preauthorizations of the void merchant to capture and to void (one each kept for the recordings).
  const seedPreauths = (prefix: string) =>
    inBatches(
      VOID_ROWS + 1,
      (from, to) => sql`
      insert into transactions (id, merchant_id, type, payment_method, is_status, status, amount_cents, authorized_cents,
        fee_cents, fee_rate_e7, net_cents, order_createdfrom, auth_code, card_brand, last_four, order_id, created_at, updated_at)
      select ${prefix} || g, ${voids.id}, 'PreAuth', 'card', 1, 'authorized', 2000, 2000, 88, 29000000, 1912, 'API',
        '123456', 'Visa', '4242', ${prefix} || g, now() - g * interval '1 millisecond', now()
      from generate_series(${from}::int, ${to}::int) g`,
    );
  await seedPreauths('txn_pacap');
  await seedPreauths('txn_pavoid');
  // What autovacuum (Postgres) or the maintenance timer (PGlite) would have done by now.
  await core.database.db.execute(sql`vacuum analyze transactions`);

  const existing = await core.database.db.execute(sql`
    select id from transactions union all select id from payment_methods union all select id from merchants`);
  const keep = new Set(((existing as unknown as { rows: Array<{ id: string }> }).rows ?? []).map((r) => r.id));

  const api = (method: 'GET' | 'POST', path: string, body: object) => () => call(method, `/api/v1${path}`, body, auth);
  /** The second of two identical requests: the first warmed whatever the route caches. */
  const warmRecord = async (send: () => Promise<unknown>) => (await send(), recorder.record(send));
  const readId = 'txn_seed5';
  const consumable = (prefix: string) => Array.from({ length: VOID_ROWS }, (_, g) => `${prefix}${g + 1}`);
  const voidable = consumable('txn_void');
  const recorded: Setup['recorded'] = {
    payLink: [await warmRecord(api('POST', '/pay-link', { merchant_key: merchantKey, amount: '25.00' }))],
    charge: [
      await warmRecord(
        api('POST', `/customers/charge/${customerId}`, {
          merchant_key: merchantKey,
          amount: 12.5,
          order_id: 'bench-charge',
          preAuth: false,
        }),
      ),
    ],
    refund: [],
    void: [],
    preauthUpdate: [],
    capture: [],
    preauthVoid: [],
    get: [await warmRecord(api('GET', `/merchant/transactions/${readId}`, { merchant_key: merchantKey }))],
    list: [
      await warmRecord(api('GET', '/merchant/transactions', { merchant_key: merchantKey, limit: '20', pageNumber: 0 })),
    ],
  };
  // The void merchant's cache warmed by a read, then one void recorded on the row kept aside for it.
  await call('GET', `/api/v1/merchant/transactions/txn_void0`, { merchant_key: voids.key }, auth);
  recorded.void.push(
    await recorder.record(api('POST', '/order/sales-void', { merchant_key: voids.key, transaction_id: 'txn_void0' })),
  );
  recorded.capture.push(
    await recorder.record(api('POST', '/preauth/capture', { merchant_key: voids.key, transaction_id: 'txn_pacap0' })),
  );
  recorded.preauthVoid.push(
    await recorder.record(api('POST', '/preauth/void', { merchant_key: voids.key, transaction_id: 'txn_pavoid0' })),
  );
  for (let i = 0; i < CONNECTIONS; i++) {
    recorded.refund.push(
      await recorder.record(
        api('POST', '/order/sales-return', { merchant_key: merchantKey, transaction_id: sales[i], amount: '0.01' }),
      ),
    );
    // Up a cent and back down: the ceiling replays the two in turn, so each replay changes the
    // amount (a replay of the same move would find the amount already moved and change nothing).
    const pa = preauths[i]!;
    for (const step of [1, -1]) {
      recorded.preauthUpdate.push(
        await recorder.record(
          api('POST', '/preauth/update', {
            merchant_key: merchantKey,
            transaction_id: pa.id,
            last_authorized_amount: dollars(pa.cents),
            new_authorized_amount: dollars(pa.cents + step),
            order_id: `bench-pa-${i}`,
          }),
        ),
      );
      pa.cents += step;
    }
  }
  await app.close();
  await core.close();
  return {
    auth,
    merchantKey,
    customerId,
    sales,
    preauths,
    voidMerchantKey: voids.key,
    voidable,
    capturable: consumable('txn_pacap'),
    preauthVoidable: consumable('txn_pavoid'),
    readId,
    recorded,
    keep,
  };
}
