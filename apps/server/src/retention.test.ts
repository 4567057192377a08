import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, openDatabase, purgeNow } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { newMerchant, validOnboarding, type TestMerchant } from './testing/fixtures.js';
import { startTestServer, testDbKind, type TestServer } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { charge, newCustomer, rows } from './testing/payments.js';
import { portalSignIn } from './testing/portal.js';
import { restartableServer } from './testing/restartable.js';

const DAY = 24 * 3600 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const count = async (s: TestServer, table: string) =>
  (await rows<{ n: number }>(s, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the retention purge', () => {
  let s: TestServer;
  let rx: Receiver;
  let m: TestMerchant;
  beforeAll(async () => {
    rx = await startReceiver();
    s = await startTestServer({ workers: { webhooks: { pollMs: 10 }, messages: { pollMs: 10 }, retention: false } });
    const auth = await s.credentials();
    await s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url: rx.url } });
    m = await newMerchant(s, { auth });
    const card = await newCustomer(s, m);
    for (let i = 0; i < 3; i++) {
      const res = await s.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${card}`,
        auth: m.auth,
        headers: { 'idempotency-key': `sale-${i}` },
        json: { merchant_key: m.merchant_key, amount: '10.00', order_id: `o-${i}` },
      });
      expect(res.status).toBe(200);
    }
    const sale = await charge(s, m, card, '20.00');
    expect(
      (
        await s.http({
          method: 'POST',
          path: '/api/v1/order/sales-return',
          auth: m.auth,
          json: { merchant_key: m.merchant_key, transaction_id: sale, amount: '5.00' },
        })
      ).status,
    ).toBe(200);
    const emailed = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Grace', email: 'grace@example.com' },
    });
    for (let i = 0; i < 2; i++) {
      const r = await s.http({
        method: 'POST',
        path: `/api/v1/customers/request-card/${emailed.body.data.customer_id}`,
        auth: m.auth,
        json: { merchant_key: m.merchant_key },
      });
      expect(r.status).toBe(200);
    }
    await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '10.00' },
    });
    await portalSignIn(s, auth);
    await portalSignIn(s, auth);
    // Every event delivered and every message in the sandbox inbox; then the workers stop, and
    // the rows are aged by hand.
    await until(async () => (await count(s, 'events where dispatched_at is null')) === 0, 'events dispatched');
    await until(
      async () => (await count(s, "webhook_deliveries where status <> 'delivered'")) === 0,
      'deliveries delivered',
    );
    await until(async () => (await count(s, "messages where status <> 'delivered_to_inbox'")) === 0, 'messages sent');
    await s.workers!.stop();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await rx?.close();
  });

  it('deletes rows past their retention and keeps younger ones, unsent ones and the whole ledger', async () => {
    const db = s.core.ctx.db;
    const old = ago(31 * DAY);
    const events = await rows<{ id: string }>(s, sql`select id from events order by created_at, id`);
    expect(events.length).toBeGreaterThanOrEqual(6);
    const [young, retrying, undispatched, ...aged] = events.map((e) => e.id);
    // Every event but one is old; of the old, one delivery is still retrying and one event was never dispatched.
    await db.execute(sql`update events set created_at = ${old}::timestamptz where id <> ${young!}`);
    await db.execute(
      sql`update webhook_deliveries set delivered_at = ${old}::timestamptz, next_attempt_at = ${old}::timestamptz where event_id <> ${young!}`,
    );
    await db.execute(
      sql`update webhook_deliveries set status = 'retrying', delivered_at = null where event_id = ${retrying!}`,
    );
    await db.execute(sql`delete from webhook_deliveries where event_id = ${undispatched!}`);
    await db.execute(sql`update events set dispatched_at = null where id = ${undispatched!}`);
    // One delivery given up on 31 days ago: gone with its event like the delivered ones.
    await db.execute(
      sql`update webhook_deliveries set status = 'failed', delivered_at = null where event_id = ${aged[0]!}`,
    );

    const messages = await rows<{ id: string }>(s, sql`select id from messages order by created_at, id`);
    expect(messages.length).toBe(2);
    await db.execute(
      sql`update messages set created_at = ${old}::timestamptz, next_attempt_at = ${old}::timestamptz, sent_at = ${old}::timestamptz`,
    );
    await db.execute(sql`update messages set status = 'pending', sent_at = null where id = ${messages[1]!.id}`);

    expect(await count(s, 'idempotency_keys')).toBe(3);
    await db.execute(
      sql`update idempotency_keys set created_at = ${ago(25 * 3600 * 1000)}::timestamptz where key <> 'sale-2'`,
    );

    expect(await count(s, 'portal_sessions')).toBe(2);
    await db.execute(
      sql`update portal_sessions set expires_at = ${ago(8 * DAY)}::timestamptz where token_hash = (select min(token_hash) from portal_sessions)`,
    );

    const [link] = await rows<{ id: string }>(s, sql`select id from pay_links limit 1`);
    await db.execute(sql`insert into pay_challenges (id, pay_link_id, status, card_enc, brand, last_four, created_at, answered_at) values
      ('chl_old', ${link!.id}, 'failed', '', 'visa', '4242', ${ago(8 * DAY)}::timestamptz, ${ago(8 * DAY)}::timestamptz),
      ('chl_abandoned', ${link!.id}, 'open', 'sealed', 'visa', '4242', ${ago(8 * DAY)}::timestamptz, null),
      ('chl_new', ${link!.id}, 'open', 'sealed', 'visa', '4242', now(), null)`);

    const ledger = await rows(s, sql`select * from transactions order by id`);
    expect(ledger.length).toBe(6); // three sales, one more, its return, the pay link's pending sale

    const purged = await purgeNow(s.core.ctx, DEFAULT_RETENTION);

    expect(purged).toMatchObject({
      events: aged.length,
      webhook_deliveries: aged.length,
      messages: 1,
      idempotency_keys: 2,
      portal_sessions: 1,
      pay_challenges: 2,
    });
    // Ids mix cases: both sides are sorted by code unit, whatever the database's collation.
    expect(
      (await rows<{ id: string }>(s, sql`select id from events order by id collate "C"`)).map((e) => e.id),
    ).toEqual([young!, retrying!, undispatched!].sort());
    expect(await rows(s, sql`select event_id, status from webhook_deliveries order by event_id collate "C"`)).toEqual(
      [
        { event_id: young!, status: 'delivered' },
        { event_id: retrying!, status: 'retrying' },
      ].sort((a, b) => (a.event_id < b.event_id ? -1 : 1)),
    );
    expect(await rows(s, sql`select id, status from messages`)).toEqual([{ id: messages[1]!.id, status: 'pending' }]);
    expect(await rows(s, sql`select key from idempotency_keys`)).toEqual([{ key: 'sale-2' }]);
    expect(await count(s, 'portal_sessions')).toBe(1);
    expect(await rows(s, sql`select id from pay_challenges`)).toEqual([{ id: 'chl_new' }]);
    expect(await rows(s, sql`select * from transactions order by id`)).toEqual(ledger);

    // Nothing more is due: a second purge deletes nothing.
    expect(Object.values(await purgeNow(s.core.ctx, DEFAULT_RETENTION)).every((n) => n === 0)).toBe(true);
  });

  it('keeps events and messages forever when their retention is off', async () => {
    const db = s.core.ctx.db;
    await db.execute(sql`update events set created_at = ${ago(400 * DAY)}::timestamptz, dispatched_at = now()`);
    await db.execute(
      sql`update webhook_deliveries set status = 'delivered', delivered_at = ${ago(400 * DAY)}::timestamptz, next_attempt_at = ${ago(400 * DAY)}::timestamptz`,
    );
    const before = await count(s, 'events');
    const purged = await purgeNow(s.core.ctx, { ...DEFAULT_RETENTION, eventsDays: null, messagesDays: null });
    expect(purged.events).toBe(0);
    expect(await count(s, 'events')).toBe(before);
  });

  it('deletes in batches: a purge of more rows than a batch takes several statements and gets them all', async () => {
    await s.core.ctx.db.execute(sql`insert into idempotency_keys (client_id, key, request_hash, status_code, response_body, created_at)
      select 'cl_batch', 'k' || g, 'h', 200, 'x', now() - interval '2 days' from generate_series(1, 25) g`);
    const purged = await purgeNow(s.core.ctx, DEFAULT_RETENTION, 10);
    expect(purged.idempotency_keys).toBe(25);
    expect(await count(s, `idempotency_keys where client_id = 'cl_batch'`)).toBe(0);
  });
});

describe('the space a purge frees', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it(`is given back on ${testDbKind === 'pglite' ? 'PGlite (the table is rewritten)' : 'Postgres by autovacuum (rows gone)'}`, async () => {
    const db = s.core.ctx.db;
    // 20,000 stored answers of 1 KB from two days ago, and 100 of today.
    await db.execute(sql`insert into idempotency_keys (client_id, key, request_hash, status_code, response_body, created_at)
      select 'cl_size', 'k' || g, 'h', 200, repeat('x', 1000), now() - case when g <= 20000 then interval '2 days' else interval '1 hour' end
      from generate_series(1, 20100) g`);
    const size = async () =>
      Number((await rows<{ n: number }>(s, sql`select pg_total_relation_size('idempotency_keys')::float8 as n`))[0]!.n);
    const before = await size();
    const purged = await purgeNow(s.core.ctx, DEFAULT_RETENTION);
    const after = await size();
    console.log(
      `idempotency_keys on ${testDbKind}: ${(before / 1e6).toFixed(1)} MB before the purge, ${(after / 1e6).toFixed(2)} MB after (${purged.idempotency_keys} rows deleted)`,
    );
    expect(purged.idempotency_keys).toBe(20000);
    expect(await count(s, 'idempotency_keys')).toBe(100);
    if (testDbKind === 'pglite') expect(after).toBeLessThan(before / 10);
  }, 60_000);
});

describe('the purge at start', () => {
  const server = restartableServer({ REMIT_WORKERS: 'on', LOG_LEVEL: 'info' });

  it('a server started with rows past their retention deletes them, and logs what it deleted', {
    timeout: 120_000,
  }, async () => {
    let p = await server.start();
    const creds = await send<{ client_id: string; secret_key: string }>({
      method: 'POST',
      url: `${p.base}/portal/api/credentials`,
    });
    const auth = basicAuth(creds.body.client_id, creds.body.secret_key);
    for (const key of ['a', 'b']) {
      const r = await send({
        method: 'POST',
        url: `${p.base}/api/v1/onboarding`,
        headers: { authorization: auth, 'idempotency-key': key },
        json: validOnboarding(),
      });
      expect(r.status).toBe(201);
    }
    await p.stop('SIGTERM');

    const where = server.where();
    let database = await openDatabase({
      databaseUrl: where.databaseUrl,
      dataDir: where.databaseUrl ? undefined : where.dataDir,
    });
    await database.db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'a'`,
    );
    const ledger = (await database.db.execute(sql`select count(*)::int as n from merchants`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    await database.close();

    p = await server.start();
    await until(async () => p.output().includes('retention purge deleted rows'), 'the purge at start');
    const line = JSON.parse(
      p
        .output()
        .split('\n')
        .find((l) => l.includes('retention purge deleted rows'))!,
    );
    expect(line.purged).toMatchObject({ idempotency_keys: 1, events: 0 });
    await p.stop('SIGTERM');

    database = await openDatabase({
      databaseUrl: where.databaseUrl,
      dataDir: where.databaseUrl ? undefined : where.dataDir,
    });
    const left = (await database.db.execute(sql`select key from idempotency_keys order by key`)) as unknown as {
      rows: Array<{ key: string }>;
    };
    expect(left.rows).toEqual([{ key: 'b' }]);
    const merchants = (await database.db.execute(sql`select count(*)::int as n from merchants`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(merchants.rows[0]!.n).toBe(ledger.rows[0]!.n);
    await database.close();
  });
});
