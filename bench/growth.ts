/**
 * Cost as data grows (part of `npm run bench`; alone: `npx tsx bench/growth.ts [pglite|postgres]`):
 * one merchant grown to 2,000, 20,000 and 200,000 sales (with other merchants' rows beside), each size
 * a database of its own with its own server, and the latency over HTTP of the merchant's list's first
 * page, today's list, the list's last page, a single read and a new pay link measured on all sizes
 * side by side (so a busy machine slows every size alike); and the bytes a sale costs on disk.
 *
 * The rows are copies of real ones: each merchant's first sales are made through the routes (a charge,
 * a voided and a refunded charge with their records, open and paid pay links, a preauthorization),
 * then copied in bulk by SQL with new ids, dates spread over the last GROWTH_DAYS days, and their
 * references (record → original, sale ↔ pay link) pointing within the copy.
 *
 * The one-day case (`runGrowth(kind, 'day')`, after the month's): the merchant's sales all fall in
 * one UTC day (yesterday's: a busy day, a bulk import), and the list's first, middle and last pages
 * and a keyset page (`starting_after`) at the middle are measured; the middle page's p50 must be
 * within DAY_RATIO_BUDGET× the first page's.
 *
 *   BENCH_GROWTH_SIZES (2000,20000,200000), BENCH_GROWTH_DAY_SIZES (2000,200000),
 *   BENCH_GROWTH_SECONDS (all sizes and routes in turn: 6), BENCH_GROWTH_NO_MINUTES=1 (the copy leaves out
 *   the per-minute counts: a deep page then starts in its day, as before they were kept),
 *   BENCH_GROWTH_KEEP=1 (keep the database and print where it is, to EXPLAIN the queries on it)
 */
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { connectDatabase, type Database } from '@remit/core';
import { buildApp } from '../apps/server/src/app.js';
import { basicAuth, send, type HttpRequest } from '../apps/server/src/testing/http.js';
import { benchDatabase, inProcessApi, openBenchCore, startBenchServer, type BenchDatabase } from './setup.js';
import { percentile } from './stats.js';

export const MONTH_SIZES = (process.env.BENCH_GROWTH_SIZES ?? '2000,20000,200000').split(',').map(Number);
const DAY_SIZES = (process.env.BENCH_GROWTH_DAY_SIZES ?? '2000,200000').split(',').map(Number);
/** How the sales' dates spread: over the last GROWTH_DAYS days, or all in yesterday's UTC day. */
export type Spread = 'month' | 'day';
const SECONDS = Number(process.env.BENCH_GROWTH_SECONDS ?? 6);
/** The rows' dates spread over this many days up to now (today's list holds about 1/GROWTH_DAYS of them). */
const GROWTH_DAYS = 30;
/** The other merchants together grow by this share of the grown merchant's sales. */
const OTHERS_SHARE = 0.5;
const OTHER_MERCHANTS = 2;
/** Blocks copied by one insert statement. */
const BLOCKS_PER_INSERT = 500;
/** A deep page must answer within this (ms, p99); the other routes within RATIO× their latency at the first size. */
const DEEP_BUDGET_MS = 100;
const RATIO_BUDGET = 2;
/** One day's sales: the middle page's p50 within this many times the first page's. */
const DAY_RATIO_BUDGET = 3;
const LIMIT = 20;

const ALL_ROUTES = ['list', 'today', 'middle', 'after', 'deep', 'get', 'payLink'] as const;
type Route = (typeof ALL_ROUTES)[number];
const ROUTES_OF: Record<Spread, readonly Route[]> = {
  month: ['list', 'today', 'deep', 'get', 'payLink'],
  day: ['list', 'middle', 'after', 'deep'],
};
const NAMES: Record<Route, string> = {
  list: 'list, first page',
  today: "today's list",
  middle: 'list, middle page',
  after: 'keyset, middle',
  deep: 'list, last page',
  get: 'single read',
  payLink: 'new pay link',
};

/** What one block of copies holds, in order: a slot per row; a record names its original's slot. */
const SLOTS = [
  ...Array.from({ length: 11 }, () => ({ template: 'charge' })),
  { template: 'voided' },
  { template: 'void', original: 11 },
  { template: 'refunded' },
  { template: 'refund', original: 13 },
  { template: 'openLink' },
  { template: 'openLink' },
  ...Array.from({ length: 4 }, () => ({ template: 'paidLink' })),
  { template: 'preauth' },
] as const;
/** Sales (payments, not their records) in a block. */
const SALES_PER_BLOCK = SLOTS.filter((s) => !('original' in s)).length;
type Template = (typeof SLOTS)[number]['template'];

interface GrownMerchant {
  id: string;
  key: string;
  /** Transaction id of each template. */
  templates: Record<Template, string>;
}

/** Each template made through the routes, as a merchant's first sales. */
async function makeTemplates(
  db: BenchDatabase,
  merchantCount: number,
): Promise<{ auth: string; merchants: GrownMerchant[] }> {
  const core = await openBenchCore(db.target);
  const app = await buildApp(core);
  try {
    const { call, merchant } = inProcessApi(app);
    const creds = (await call('POST', '/portal/api/credentials')).json;
    const auth = basicAuth(creds.client_id, creds.secret_key);
    const card = {
      number: '4242424242424242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      cvc: '123',
      zip: '94105',
    };
    const merchants: GrownMerchant[] = [];
    for (let i = 0; i < merchantCount; i++) {
      const m = await merchant(auth, i === 0 ? 'Growth Shop' : `Other Shop ${i}`);
      const api = (path: string, body: object) =>
        call('POST', `/api/v1${path}`, { merchant_key: m.key, ...body }, auth);
      const customerId = (
        await api('/customers/add', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', card })
      ).json.data.customer_id;
      let order = 0;
      const charge = async (preAuth = false) =>
        (
          await api(`/customers/charge/${customerId}`, {
            amount: 42.5,
            order_id: `growth-${Date.now()}-${order++}`,
            preAuth,
          })
        ).json.transaction_id as string;
      const payLink = async () =>
        (await api('/pay-link', { amount: '25.00' })).json.data as { payment_link: string; sales_id: string };
      const voided = await charge();
      const refunded = await charge();
      const paid = await payLink();
      await call(
        'POST',
        `/pay/api/links/${paid.payment_link.split('/').pop()}/pay`,
        { method: 'card', card: { ...card, name: 'Ada Lovelace' } },
        undefined,
        {
          'idempotency-key': `growth-${i}`,
        },
      );
      const templates: Record<Template, string> = {
        charge: await charge(),
        voided,
        void: (await api('/order/sales-void', { transaction_id: voided })).json.data.transaction_id,
        refunded,
        refund: (await api('/order/sales-return', { transaction_id: refunded, amount: '10.00' })).json.data
          .transaction_id,
        openLink: (await payLink()).sales_id,
        paidLink: paid.sales_id,
        preauth: await charge(true),
      };
      merchants.push({ id: m.id, key: m.key, templates });
    }
    return { auth, merchants };
  } finally {
    await app.close();
    await core.close();
  }
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** Column names of a table, in order. */
async function columns(database: Database, table: string): Promise<string[]> {
  const r = await database.db.execute(
    sql`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`,
  );
  return rowsOf<{ column_name: string }>(r).map((c) => c.column_name);
}

/**
 * Copies blocks [from, to) of a merchant's templates: every column as the template has it, but ids
 * (made from the merchant, block and slot, as long as real ones), dates (the block's own, each
 * timestamp moved by the same shift), order ids, processor references and the links between rows.
 */
async function copyBlocks(
  database: Database,
  m: GrownMerchant,
  from: number,
  to: number,
  cols: { txn: string[]; link: string[] },
  spread: Spread,
) {
  const seed = m.id;
  const id = (prefix: string, slot: SQL) => sql`${prefix} || substr(md5(${seed} || ':' || g || ':' || ${slot}), 1, 20)`;
  const txnId = (slot: SQL) => id('txn_', slot);
  const linkId = (slot: SQL) => id('ord_', slot);
  const slots = sql.join(
    SLOTS.map(
      (s, k) => sql`(${k}::int, ${m.templates[s.template]}::text, ${'original' in s ? s.original : null}::int)`,
    ),
    sql`, `,
  );
  // A block's dates: somewhere in the last GROWTH_DAYS days (a fixed scramble of g), or in yesterday's
  // UTC day, a second apart by slot.
  const [end, span] =
    spread === 'month'
      ? [sql`now() - interval '600 seconds'`, GROWTH_DAYS * 86_400 - 600]
      : [sql`date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '60 seconds'`, 86_400 - 60];
  const shift = sql`(${end} - ((g::bigint * 2654435761) % ${span}) * interval '1 second' + s.k * interval '1 second') - t.created_at`;
  const orderId = sql`case when t.order_id = t.pay_link_id then ${linkId(sql`s.k`)} else 'order-' || g || '-' || s.k end`;
  const txnExpr: Record<string, SQL> = {
    id: txnId(sql`s.k`),
    linked_txn_id: sql`case when s.original is null then null else ${txnId(sql`s.original`)} end`,
    pay_link_id: sql`case when t.pay_link_id is null then null else ${linkId(sql`coalesce(s.original, s.k)`)} end`,
    order_id: orderId,
    gateway_ref: sql`case when t.gateway_ref is null then null else 'gw_' || substr(md5('gw' || ${seed} || g || ':' || s.k), 1, 16) end`,
  };
  const shifted = ['created_at', 'updated_at', 'settled_at', 'completed_at', 'paid_at', 'deleted_at', 'expires_at'];
  const select = (alias: string, names: string[], exprs: Record<string, SQL>) =>
    sql.join(
      names.map(
        (c) =>
          exprs[c] ??
          (shifted.includes(c)
            ? sql`${sql.raw(alias)}.${sql.identifier(c)} + x.shift`
            : sql`${sql.raw(alias)}.${sql.identifier(c)}`),
      ),
      sql`, `,
    );
  const list = (names: string[]) => sql.raw(names.map((c) => `"${c}"`).join(', '));
  const source = sql`generate_series(${from}::int, ${to - 1}::int) g cross join (values ${slots}) s(k, tid, original) join transactions t on t.id = s.tid
    cross join lateral (select ${shift} as shift) x`;
  // The per-day counts as the trigger keeps them (a day's rows over its 16 shards) and the per-minute
  // ones (one row a minute, as inserts one at a time leave them), added once per statement: the
  // trigger's upserts a row were two thirds of the copy's time.
  const minutes = process.env.BENCH_GROWTH_NO_MINUTES
    ? sql`select 1`
    : sql`insert into transaction_minute_counts (merchant_id, minute, shard, n)
    select merchant_id, date_trunc('minute', created_at at time zone 'UTC') at time zone 'UTC', 0, count(*) from copied group by 1, 2
    on conflict (merchant_id, minute, shard) do update set n = transaction_minute_counts.n + excluded.n`;
  await database.db.execute(sql`with copied as (
      insert into transactions (${list(cols.txn)}) select ${select('t', cols.txn, txnExpr)} from ${source}
      returning merchant_id, created_at, id
    ), days as (
      insert into transaction_counts (merchant_id, day, shard, n)
      select merchant_id, (created_at at time zone 'UTC')::date, (abs(hashtext(id)) % 16)::smallint, count(*) from copied group by 1, 2, 3
      on conflict (merchant_id, day, shard) do update set n = transaction_counts.n + excluded.n
    )
    ${minutes}`);
  const linkExpr: Record<string, SQL> = { id: linkId(sql`s.k`), sales_id: txnId(sql`s.k`), order_id: orderId };
  await database.db.execute(
    sql`insert into pay_links (${list(cols.link)}) select ${select('l', cols.link, linkExpr)} from ${source} join pay_links l on l.id = t.pay_link_id and l.sales_id = t.id`,
  );
}

/** The tables a sale's bytes are counted in (with their indexes and TOAST). */
const LEDGER = ['transactions', 'transaction_counts', 'transaction_minute_counts', 'pay_links'];

/** Grows each merchant to its share of `sales` (from `before`), in statements of BLOCKS_PER_INSERT blocks. */
async function grow(database: Database, merchants: GrownMerchant[], before: number, sales: number, spread: Spread) {
  const cols = { txn: await columns(database, 'transactions'), link: await columns(database, 'pay_links') };
  const blocks = (n: number, i: number) =>
    Math.round((i === 0 ? n : (n * OTHERS_SHARE) / (merchants.length - 1)) / SALES_PER_BLOCK);
  // copyBlocks counts what it copies (the server is stopped: nothing else writes meanwhile).
  await database.db.execute(sql`alter table transactions disable trigger transactions_count`);
  try {
    for (const [i, m] of merchants.entries()) {
      // Block 0 is the templates themselves.
      for (let from = Math.max(1, blocks(before, i)), end = blocks(sales, i); from < end; from += BLOCKS_PER_INSERT) {
        await copyBlocks(database, m, from, Math.min(end, from + BLOCKS_PER_INSERT), cols, spread);
      }
    }
  } finally {
    await database.db.execute(sql`alter table transactions enable trigger transactions_count`);
  }
  // What autovacuum (Postgres) or the server's upkeep (PGlite: at start) does after a bulk load.
  await database.db.execute(sql`vacuum analyze ${sql.raw(LEDGER.join(', '))}`);
  // The load's dirty pages written now, not by a checkpoint in the middle of the measurement.
  await database.db.execute(sql`checkpoint`);
}

interface Size {
  /** The merchant's sales and its list's total (sales and their records). */
  sales: number;
  rows: number;
  /** Sales of every merchant, and the ledger tables' bytes (with their indexes and TOAST). */
  allSales: number;
  ledgerBytes: number;
  /** The same bytes by table. */
  tableBytes: Record<string, number>;
  /** PGlite: the data directory's bytes. */
  dirBytes?: number;
  /** Some of the merchant's transaction ids, to read one at a time. */
  readIds: string[];
  /** The id just before the middle page (the keyset page after it is the middle page). */
  middleAfter: string;
}

async function measureSize(database: Database, merchant: GrownMerchant): Promise<Omit<Size, 'sales'>> {
  const [counts] = rowsOf<{ rows: string; all_sales: string }>(
    await database.db.execute(sql`select
      (select count(*) from transactions where merchant_id = ${merchant.id}) as rows,
      (select count(*) from transactions where linked_txn_id is null) as all_sales`),
  );
  const tableBytes = Object.fromEntries(
    rowsOf<{ t: string; bytes: string }>(
      await database.db.execute(
        sql`select c as t, pg_total_relation_size(c::regclass) as bytes from unnest(${`{${LEDGER.join(',')}}`}::text[]) c`,
      ),
    ).map((r) => [r.t, Number(r.bytes)]),
  );
  const readIds = rowsOf<{ id: string }>(
    await database.db.execute(
      sql`select id from transactions where merchant_id = ${merchant.id} order by md5(id) limit 64`,
    ),
  ).map((r) => r.id);
  const rows = Number(counts!.rows);
  const [middle] = rowsOf<{ id: string }>(
    await database.db.execute(
      sql`select id from transactions where merchant_id = ${merchant.id} order by created_at desc, id desc offset ${middlePage(rows) * LIMIT - 1} limit 1`,
    ),
  );
  const ledgerBytes = Object.values(tableBytes).reduce((a, b) => a + b, 0);
  return { rows, allSales: Number(counts!.all_sales), ledgerBytes, tableBytes, readIds, middleAfter: middle!.id };
}

/** The middle page of a list of `rows` (at least 1). */
const middlePage = (rows: number) => Math.max(1, Math.floor(rows / 2 / LIMIT));

/** Bytes of the files under a directory. */
function dirBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return total;
}

interface Latency {
  p50: number;
  p99: number;
  n: number;
}

/** The requests of each route to one size's server, and a check of what it answers. */
function routeRequests(base: string, auth: string, m: GrownMerchant, size: Size, routes: readonly Route[]) {
  const headers = { authorization: auth };
  const today = new Date().toISOString().slice(0, 10);
  const lastPage = Math.floor((size.rows - 1) / LIMIT);
  const list = (body: object): HttpRequest => ({
    method: 'GET',
    url: `${base}/api/v1/merchant/transactions`,
    headers,
    json: { merchant_key: m.key, ...body },
  });
  let read = 0;
  const requests: Record<Route, () => HttpRequest> = {
    list: () => list({ limit: String(LIMIT), pageNumber: 0 }),
    today: () => list({ from_date: today, to_date: today, limit: String(LIMIT), pageNumber: 0 }),
    deep: () => list({ limit: String(LIMIT), pageNumber: lastPage }),
    middle: () => list({ limit: String(LIMIT), pageNumber: middlePage(size.rows) }),
    after: () => list({ limit: String(LIMIT), starting_after: size.middleAfter }),
    get: () => ({
      method: 'GET',
      url: `${base}/api/v1/merchant/transactions/${size.readIds[read++ % size.readIds.length]}`,
      headers,
      json: { merchant_key: m.key },
    }),
    payLink: () => ({
      method: 'POST',
      url: `${base}/api/v1/pay-link`,
      headers,
      json: { merchant_key: m.key, amount: '25.00' },
    }),
  };
  /** One request's time in ms; throws on an answer that is not the one expected. */
  const once = async (r: Route) => {
    const t0 = process.hrtime.bigint();
    const res = await send<{ data: unknown[]; total?: number }>(requests[r]());
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 200) throw new Error(`${NAMES[r]} at ${size.sales}: ${res.status} ${res.text.slice(0, 300)}`);
    // The last page holds the oldest rows: never empty (the pay links made meanwhile are newer).
    if (r === 'deep' && res.body.data.length === 0)
      throw new Error(`the last page (${lastPage}) is empty at ${size.sales}: total ${res.body.total}`);
    return ms;
  };
  /** The keyset page after the row before the middle page is the middle page itself. */
  const checkKeyset = async () => {
    const [a, b] = await Promise.all([
      send<{ data: Array<{ transaction_id: string }> }>(requests.middle()),
      send<{ data: Array<{ transaction_id: string }> }>(requests.after()),
    ]);
    const ids = (r: typeof a) => r.body.data.map((d) => d.transaction_id).join();
    if (ids(a) !== ids(b) || !a.body.data.length)
      throw new Error(`the keyset page differs from the middle page at ${size.sales}`);
  };
  /** The counts the copy added must be the rows it made (the list's total is their sum). */
  const checkTotal = async () => {
    const res = await send<{ total: number }>(requests.list());
    if (res.body.total !== size.rows)
      throw new Error(`the list's total is ${res.body.total} at ${size.sales}, the merchant has ${size.rows} rows`);
    if (routes.includes('after')) await checkKeyset();
  };
  return { once, checkTotal, routes };
}

/**
 * Each route's latency at each size, one request at a time (no queueing: the figure is the request's
 * own cost), every size's server and every route taken in turn, so the machine's other work falls on
 * all alike and the ratio between sizes is measured in the same moments. SECONDS after a warm-up.
 */
async function latencies(servers: Array<ReturnType<typeof routeRequests>>): Promise<Array<Record<Route, Latency>>> {
  const ROUTES = servers[0]!.routes;
  for (const s of servers) await s.checkTotal();
  for (let i = 0; i < 5; i++) for (const r of ROUTES) for (const s of servers) await s.once(r);
  const samples = servers.map(
    () => Object.fromEntries(ROUTES.map((r) => [r, [] as number[]])) as Record<Route, number[]>,
  );
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until || samples[0]!.deep.length < 20) {
    for (const r of ROUTES) for (const [i, s] of servers.entries()) samples[i]![r].push(await s.once(r));
  }
  return samples.map(
    (perRoute) =>
      Object.fromEntries(
        ROUTES.map((r) => {
          const sorted = perRoute[r].sort((a, b) => a - b);
          return [r, { p50: percentile(sorted, 50), p99: percentile(sorted, 99), n: sorted.length }];
        }),
      ) as Record<Route, Latency>,
  );
}

export interface GrowthCurve {
  kind: 'pglite' | 'postgres';
  spread: Spread;
  points: Array<Size & { latency: Record<Route, Latency> }>;
  seconds: number;
  /** The machine's load average at the start and at the end. */
  load: [number, number];
}

/**
 * Grows the data size by size, each size a copy of the one before grown further (made with no server
 * on it: PGlite has one owner); then a server on each size at once, measured side by side.
 */
export async function runGrowth(kind: 'pglite' | 'postgres', spread: Spread = 'month'): Promise<GrowthCurve> {
  const SIZES = spread === 'month' ? MONTH_SIZES : DAY_SIZES;
  const t0 = Date.now();
  const loadStart = loadavg()[0]!;
  const step = (what: string) =>
    process.stderr.write(`  growth ${kind} (${spread}): ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  const dbs: BenchDatabase[] = [];
  let keptKey = '';
  try {
    dbs.push(await benchDatabase(kind));
    const { auth, merchants } = await makeTemplates(dbs[0]!, 1 + OTHER_MERCHANTS);
    const grown = merchants[0]!;
    keptKey = grown.key;
    step('templates made');
    const sizes: Size[] = [];
    for (const [i, sales] of SIZES.entries()) {
      if (i > 0) dbs.push(await dbs[i - 1]!.copy());
      const db = dbs[i]!;
      const database = await connectDatabase(db.target);
      try {
        await grow(database, merchants, SIZES[i - 1] ?? 0, sales, spread);
        sizes.push({ sales, ...(await measureSize(database, grown)) });
      } finally {
        await database.close();
      }
      if (db.target.dataDir) sizes[i]!.dirBytes = dirBytes(db.target.dataDir);
      step(`grown to ${sales}`);
    }
    const servers = await Promise.all(dbs.map((db) => startBenchServer(db)));
    try {
      step('servers started');
      const latency = await latencies(
        servers.map((s, i) => routeRequests(s.base, auth, grown, sizes[i]!, ROUTES_OF[spread])),
      );
      step('measured');
      const points = sizes.map((s, i) => ({ ...s, latency: latency[i]! }));
      return { kind, spread, points, seconds: (Date.now() - t0) / 1000, load: [loadStart, loadavg()[0]!] };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  } finally {
    if (process.env.BENCH_GROWTH_KEEP)
      step(`kept the data: ${JSON.stringify(dbs.map((d) => d.target))}, merchant key ${keptKey}`);
    else for (const db of dbs) await db.drop();
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
const n = (x: number) => x.toLocaleString('en-US');

export function reportGrowth(c: GrowthCurve): string {
  const ROUTES = ROUTES_OF[c.spread];
  const out: string[] = [];
  const where = c.spread === 'month' ? `dates over ${GROWTH_DAYS} days` : "all its sales in one UTC day (yesterday's)";
  out.push(
    `\n== growth: ${c.kind}, one merchant, ${where} (other merchants ${OTHERS_SHARE * 100}% beside), p50 / p99 ms one request at a time; ${c.seconds.toFixed(0)} s, load average ${c.load.map((l) => l.toFixed(1)).join(' → ')} ==`,
  );
  const head = [
    'sales',
    'its rows',
    ...ROUTES.map((r) => NAMES[r]),
    'ledger B/sale',
    ...(c.kind === 'pglite' ? ['dir B/sale'] : []),
  ];
  const widths = head.map((h) => Math.max(h.length, 13));
  const line = (cells: string[]) => cells.map((x, i) => x.padStart(widths[i]!)).join('  ');
  out.push(line(head));
  for (const p of c.points) {
    out.push(
      line([
        n(p.sales),
        n(p.rows),
        ...ROUTES.map((r) => `${p.latency[r].p50.toFixed(1)} / ${p.latency[r].p99.toFixed(1)}`),
        (p.ledgerBytes / p.allSales).toFixed(0),
        ...(p.dirBytes ? [(p.dirBytes / p.allSales).toFixed(0)] : []),
      ]),
    );
  }
  const first = c.points[0]!;
  const last = c.points.at(-1)!;
  const grew = last.allSales - first.allSales;
  const added = (a: number, b: number) => ((b - a) / grew).toFixed(0);
  out.push(
    `  bytes a sale adds from ${n(first.sales)} to ${n(last.sales)}: ledger tables with indexes ${added(first.ledgerBytes, last.ledgerBytes)}` +
      (last.dirBytes && first.dirBytes ? `, PGlite data directory ${added(first.dirBytes, last.dirBytes)}` : '') +
      ` (every merchant's sales, their voids and refunds counted in); by table: ` +
      LEDGER.map((t) => `${t} ${added(first.tableBytes[t] ?? 0, last.tableBytes[t] ?? 0)}`).join(', '),
  );
  for (const r of ROUTES) {
    if (r === 'deep') {
      out.push(
        `  ${NAMES[r].padEnd(18)} p99 ${last.latency.deep.p99.toFixed(1)} ms at ${n(last.sales)} sales (page ${Math.floor((last.rows - 1) / LIMIT)}, ${LIMIT} a page)  ≤ ${DEEP_BUDGET_MS} ms  ${verdict(last.latency.deep.p99 <= DEEP_BUDGET_MS)}`,
      );
      continue;
    }
    if (r === 'middle' || r === 'after') {
      const ratio = last.latency[r].p50 / last.latency.list.p50;
      out.push(
        `  ${NAMES[r].padEnd(18)} p50 ×${ratio.toFixed(2)} the first page's at ${n(last.sales)} sales (page ${middlePage(last.rows)})  ≤ ×${DAY_RATIO_BUDGET}  ${verdict(ratio <= DAY_RATIO_BUDGET)}`,
      );
      continue;
    }
    const ratio = last.latency[r].p50 / first.latency[r].p50;
    const ratio99 = last.latency[r].p99 / first.latency[r].p99;
    out.push(
      `  ${NAMES[r].padEnd(18)} p50 ×${ratio.toFixed(2)} (p99 ×${ratio99.toFixed(2)}) from ${n(first.sales)} to ${n(last.sales)} sales  ≤ ×${RATIO_BUDGET}  ${verdict(ratio <= RATIO_BUDGET)}`,
    );
  }
  return out.join('\n');
}

/** The growth run: sales over a month, then all in one day. */
export async function reportGrowthRuns(kind: 'pglite' | 'postgres'): Promise<void> {
  for (const spread of ['month', 'day'] as const) console.log(reportGrowth(await runGrowth(kind, spread)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  const spreads = (['month', 'day'] as const).filter((d) => !process.argv[3] || process.argv[3] === d);
  for (const kind of (['pglite', 'postgres'] as const).filter((d) => !only || only === d))
    for (const spread of spreads) console.log(reportGrowth(await runGrowth(kind, spread)));
}
