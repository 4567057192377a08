/**
 * The keyed write path beside the unkeyed one: `POST /customers/charge/{id}` with a fresh
 * `Idempotency-Key` per request (the claim, the operation and its stored answer in one held
 * transaction) and without one, on one server, alternating, 50 connections.
 *
 * Then the bytes each keyed charge left, by table (with indexes and TOAST): the stored answers beside
 * the ledger rows they answer.
 *
 *   npx tsx bench/keyed-charge.ts pglite|postgres      BENCH_A_ROOT: run the server of another checkout
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { basicAuth, send } from '../apps/server/src/testing/http.js';
import { validOnboarding } from '../apps/server/src/testing/fixtures.js';
import { sql } from 'drizzle-orm';
import { connectDatabase } from '@remit/core';
import { benchDatabase, startBenchServer } from './setup.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const db = await benchDatabase(kind, { socket: false });
const root = process.env.BENCH_A_ROOT;
const server = await startBenchServer(db, {}, root);
try {
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${server.base}/portal/api/credentials`,
  });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const post = (path: string, json: object) =>
    send<any>({ method: 'POST', url: `${server.base}/api/v1${path}`, headers: { authorization }, json });
  const onboarded = await post('/onboarding', validOnboarding({}));
  const { merchant_key } = onboarded.body.data;
  const list = await send<any>({ method: 'GET', url: `${server.base}/api/v1/merchant`, headers: { authorization } });
  await post('/approve-merchant', { merchant_id: list.body.data[0].merchant_id });
  const card = { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123', zip: '94105' };
  const customer = await post('/customers/add', { merchant_key, first_name: 'Ada', card });
  const path = `/api/v1/customers/charge/${customer.body.data.customer_id}`;
  const body = JSON.stringify({ merchant_key, amount: '1.00', order_id: 'bench', preAuth: false });
  const run = (keyed: boolean) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url: `${server.base}${path}`,
          method: 'POST',
          connections: 50,
          duration: SECONDS,
          headers: { authorization, 'content-type': 'application/json' },
          body,
          requests: [
            {
              setupRequest: (r: any) =>
                keyed ? { ...r, headers: { ...r.headers, 'idempotency-key': randomUUID() } } : r,
            },
          ],
        },
        (err, res) => (err ? reject(err) : resolve(res)),
      ),
    );
  for (let round = 0; round < 2; round++) {
    for (const keyed of [false, true]) {
      const r = await run(keyed);
      console.log(
        `${kind} ${root ? 'A' : 'B'} round ${round} ${keyed ? 'keyed  ' : 'unkeyed'} ${Math.round(r.requests.average)} req/s  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}`,
      );
    }
  }
} finally {
  await server.stop();
}
try {
  // After the server stopped (PGlite has one owner). The tables a keyed charge writes to.
  const database = await connectDatabase(db.target);
  try {
    const tables = [
      'idempotency_keys',
      'transactions',
      'transaction_counts',
      'transaction_minute_counts',
      'webhook_events',
    ];
    const r = (await database.db.execute(sql`select
        (select count(*) from idempotency_keys)::int as keys,
        (select count(*) from transactions)::int as sales,
        (select avg(length(response_body))::int from idempotency_keys) as answer_chars,
        (select json_object_agg(c, pg_total_relation_size(c::regclass)) from unnest(${`{${tables.join(',')}}`}::text[]) c where to_regclass(c) is not null) as bytes`)) as unknown as {
      rows: Array<{ keys: number; sales: number; answer_chars: number; bytes: Record<string, number> }>;
    };
    const { keys, sales, answer_chars, bytes } = r.rows[0]!;
    console.log(
      `${kind} ${root ? 'A' : 'B'}: ${keys} keyed of ${sales} sales; response_body ${answer_chars} characters a key on average; bytes by table (with indexes, TOAST):`,
    );
    console.log(
      `  ${Object.entries(bytes)
        .map(
          ([t, b]) =>
            `${t} ${b.toLocaleString('en-US')} (${(b / (t === 'idempotency_keys' ? keys : sales)).toFixed(0)} a ${t === 'idempotency_keys' ? 'key' : 'sale'})`,
        )
        .join(', ')}`,
    );
  } finally {
    await database.close();
  }
} finally {
  await db.drop();
}
