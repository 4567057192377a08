import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore, type Core } from '@remit/core';
import { createTestDatabase } from './testing/harness.js';
import { validOnboarding } from './testing/fixtures.js';
import { basicAuth, send } from './testing/http.js';
import { TEST_CARD } from './testing/payments.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * Two real server processes on one Postgres (always the local Postgres: the cache is checked
 * against the database's merchant_epoch only there). Each process keeps merchants in memory; a
 * merchant changed through one process, or by any other writer (here `operator`: a third
 * connection, as psql or the CLI would be), is seen by the very next request to either process.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let operator: Core;
let a: ServerProcess;
let b: ServerProcess;
const encryptionKey = randomBytes(32);

beforeAll(async () => {
  db = await createTestDatabase();
  // Migrate once here, so the two servers start on a ready schema.
  operator = await openCore({ env: 'sandbox', publicUrl: 'http://127.0.0.1', encryptionKey, databaseUrl: db.url });
  const env = { DATABASE_URL: db.url, REMIT_ENCRYPTION_KEY: encryptionKey.toString('hex'), REMIT_WORKERS: 'off' };
  [a, b] = await Promise.all([
    startProcess('apps/server/src/main.ts', env),
    startProcess('apps/server/src/main.ts', env),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  await operator?.close();
  await db?.drop();
});

interface Shop {
  auth: string;
  merchant_key: string;
  merchant_id: string;
  customer: number;
}

const call = (p: ServerProcess, auth: string, path: string, json: object) =>
  send<any>({ method: 'POST', url: `${p.base}${path}`, headers: { authorization: auth }, json });

/** Credentials and a merchant made through A; a card customer added through B. */
async function newShop(opts: { approve?: boolean } = {}): Promise<Shop> {
  const creds = await send<any>({ method: 'POST', url: `${a.base}/portal/api/credentials` });
  const auth = basicAuth(creds.body.client_id, creds.body.secret_key);
  const onboarded = await call(a, auth, '/api/v1/onboarding', validOnboarding({}));
  expect(onboarded.status, onboarded.text).toBe(201);
  const { merchant_key } = onboarded.body.data;
  const [row] = await rows<{ id: string }>(sql`select id from merchants where client_id = ${creds.body.client_id}`);
  if (opts.approve !== false)
    expect((await call(a, auth, '/api/v1/approve-merchant', { merchant_id: row!.id })).status).toBe(200);
  const added = await call(b, auth, '/api/v1/customers/add', { merchant_key, first_name: 'Ada', card: TEST_CARD });
  expect(added.status, added.text).toBe(200);
  return { auth, merchant_key, merchant_id: row!.id, customer: added.body.data.customer_id };
}

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await operator.ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
}

let orders = 0;
const chargeOn = (p: ServerProcess, shop: Shop, key = shop.merchant_key, amount = '1.00') =>
  call(p, shop.auth, `/api/v1/customers/charge/${shop.customer}`, {
    merchant_key: key,
    amount,
    order_id: `two-${orders++}`,
    preAuth: false,
  });

/** The answer a charge gets: 200, or the error's code. */
const outcome = async (p: ServerProcess, shop: Shop, key?: string) => {
  const r = await chargeOn(p, shop, key);
  return r.status === 200 ? 200 : `${r.status} ${r.body?.code}`;
};

describe('a merchant changed in one process is seen by every process at once', () => {
  it('approved through A: B, which had it cached as pending, accepts its next charge', async () => {
    const shop = await newShop({ approve: false });
    // B refuses twice: the second answer comes from its cache.
    expect(await outcome(b, shop)).toBe('400 merchant_not_approved');
    expect(await outcome(b, shop)).toBe('400 merchant_not_approved');
    expect((await call(a, shop.auth, '/api/v1/approve-merchant', { merchant_id: shop.merchant_id })).status).toBe(200);
    expect(await outcome(b, shop)).toBe(200);
  });

  it('suspended by another writer: both processes refuse the very next request, and accept again as soon as it is lifted (20 rounds)', async () => {
    const shop = await newShop();
    const seen: Array<string | number> = [];
    for (let round = 0; round < 20; round++) {
      for (const p of [a, b]) seen.push(await outcome(p, shop));
      await operator.ctx.db.execute(sql`update merchants set status = 'suspended' where id = ${shop.merchant_id}`);
      for (const p of [b, a]) seen.push(await outcome(p, shop));
      await operator.ctx.db.execute(sql`update merchants set status = 'approved' where id = ${shop.merchant_id}`);
    }
    expect(seen).toEqual(
      Array.from({ length: 20 }, () => [200, 200, '400 merchant_suspended', '400 merchant_suspended']).flat(),
    );
  }, 60_000);

  it('a key changed by another writer: the old key is refused by both at once, the new one accepted', async () => {
    const shop = await newShop();
    expect([await outcome(a, shop), await outcome(b, shop), await outcome(b, shop)]).toEqual([200, 200, 200]);
    const newKey = `mk_test_${randomBytes(16).toString('hex')}`;
    await operator.ctx.db.execute(
      sql`update merchants set merchant_key_hash = encode(sha256(convert_to(${newKey}, 'UTF8')), 'hex') where id = ${shop.merchant_id}`,
    );
    expect([await outcome(b, shop), await outcome(a, shop)]).toEqual([
      '401 invalid_merchant_key',
      '401 invalid_merchant_key',
    ]);
    expect([await outcome(b, shop, newKey), await outcome(a, shop, newKey)]).toEqual([200, 200]);
  });

  it("the sandbox clock moved through A is B's clock at once: a full refund of a charge made through B is a void", async () => {
    const shop = await newShop();
    const sale = await chargeOn(b, shop, shop.merchant_key, '10.00');
    expect(sale.status).toBe(200);
    const moved = await call(a, shop.auth, '/sandbox/advance-clock', { merchant_key: shop.merchant_key, hours: 25 });
    expect(moved.status).toBe(200);
    const refund = await call(b, shop.auth, '/api/v1/order/sales-return', {
      merchant_key: shop.merchant_key,
      transaction_id: sale.body.transaction_id,
      amount: '10.00',
    });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.body.data).toMatchObject({ type: 'Void', linked_txn_id: sale.body.transaction_id });
  });

  it("B's database connections dropped: its cache holds nothing that a lost connection could leave stale", async () => {
    const shop = await newShop();
    expect([await outcome(b, shop), await outcome(b, shop)]).toEqual([200, 200]);
    // Every connection to the database but the operator's is ended (A's and B's pools alike).
    const [ended] = await rows<{ n: number }>(sql`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`);
    expect(ended!.n).toBeGreaterThan(0);
    await operator.ctx.db.execute(sql`update merchants set status = 'suspended' where id = ${shop.merchant_id}`);
    // The pools notice their ended connections and open new ones; until then a request may fail,
    // but none may be answered from what B cached before.
    const answers: Array<string | number> = [];
    for (let i = 0; i < 5; i++) answers.push(await outcome(b, shop));
    expect(answers).not.toContain(200);
    expect(answers.at(-1)).toBe('400 merchant_suspended');
  });
});
