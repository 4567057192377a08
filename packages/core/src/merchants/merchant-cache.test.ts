import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants } from '../db/schema.js';
import { openCore, type Core } from '../open.js';
import { addTestMerchant, type CoreFixture } from '../payments/test-support.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-database.js';
import { merchantForKey } from './merchant-key.js';
import { MERCHANT_EPOCH, MerchantCache } from './merchant-cache.js';
import { inTransaction } from '../operation.js';

/**
 * The merchant cache and the epoch it is checked against, at the core (no HTTP), on the test
 * database. The two-process proof is apps/server/src/merchant-cache.two-processes.test.ts.
 */

let testDb: TestDatabase | null = null;
let core: Core;
let f: CoreFixture;
let sent = 0;
beforeAll(async () => {
  testDb = testDbKind === 'postgres' ? await createTestDatabase('remit_mc') : null;
  core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: testDb?.url,
    onStatement: () => void sent++,
  });
  f = await addTestMerchant(core);
});
afterAll(async () => {
  await core.close();
  await testDb?.drop();
});

const db = () => core.ctx.db;
/** The epoch as a request's first statement reads it. */
const readEpoch = async () => {
  const r = await db().execute(sql`select ${MERCHANT_EPOCH} as epoch`);
  return Number((r as unknown as { rows: Array<{ epoch: number }> }).rows[0]!.epoch);
};
/** The statements one call sends. */
async function statements<T>(run: () => Promise<T>): Promise<[T, number]> {
  const before = sent;
  const value = await run();
  return [value, sent - before];
}
const setStatus = (status: string) => db().update(merchants).set({ status }).where(eq(merchants.id, f.merchantId));

describe('merchant_epoch (migration 0006)', () => {
  it('rises with each statement that updates or deletes merchants, in its transaction; a rolled-back change and a new merchant leave it', async () => {
    const e0 = await readEpoch();
    await setStatus('approved');
    expect(await readEpoch()).toBe(e0 + 1);
    await db().transaction(async (tx) => {
      await tx.update(merchants).set({ status: 'approved' }).where(eq(merchants.id, f.merchantId));
      await tx.execute(sql`update merchants set website = website where id = ${f.merchantId}`);
    });
    expect(await readEpoch()).toBe(e0 + 3);
    await expect(
      db().transaction(async (tx) => {
        await tx.update(merchants).set({ status: 'suspended' }).where(eq(merchants.id, f.merchantId));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await readEpoch()).toBe(e0 + 3);
    await addTestMerchant(core);
    expect(await readEpoch()).toBe(e0 + 3);
    await db().execute(sql`delete from merchants where id = 'm_none'`);
    expect(await readEpoch()).toBe(e0 + 4);
  });
});

describe('the cache, one rule on both databases', () => {
  it('is checked against the epoch: served with the epoch it was read at, looked up again with any other or none', async () => {
    const e = await readEpoch();
    const [first, n1] = await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, e));
    expect([first.id, n1]).toEqual([f.merchantId, 1]);
    const [again, n2] = await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, e));
    expect([again, n2]).toEqual([first, 0]);
    expect((await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, e + 1)))[1]).toBe(1);
    expect((await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey)))[1]).toBe(1);
    expect((await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey)))[1]).toBe(1);
  });

  it.runIf(testDbKind === 'postgres')(
    'a change committed by another connection (another process, psql) is seen by the next request, and a lookup that raced it is never served after',
    async () => {
      const other = new pg.Client({ connectionString: testDb!.url });
      await other.connect();
      try {
        await setStatus('approved');
        const warm = await readEpoch();
        expect((await merchantForKey(core.ctx, f.clientId, f.merchantKey, warm)).status).toBe('approved');

        // Another writer's change, not yet committed: a lookup now reads the old row, at the old epoch.
        await other.query('begin');
        await other.query(`update merchants set status = 'suspended' where id = $1`, [f.merchantId]);
        const during = await readEpoch();
        expect(during).toBe(warm);
        expect((await merchantForKey(core.ctx, f.clientId, f.merchantKey, during)).status).toBe('approved');
        await other.query('commit');

        // The next request's statement reads the new epoch: the entry cached during the change is not served.
        const after = await readEpoch();
        expect(after).toBe(warm + 1);
        const [m, n] = await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, after));
        expect([m.status, n]).toEqual(['suspended', 1]);
        expect((await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, after)))[1]).toBe(0);

        // A changed key: the old one is refused at once, though it was cached.
        await other.query(
          `update merchants set merchant_key_hash = encode(sha256(convert_to($2, 'UTF8')), 'hex') where id = $1`,
          [f.merchantId, 'mk_test_rotated'],
        );
        const rotated = await readEpoch();
        await expect(merchantForKey(core.ctx, f.clientId, f.merchantKey, rotated)).rejects.toMatchObject({
          code: 'invalid_merchant_key',
        });
        expect((await merchantForKey(core.ctx, f.clientId, 'mk_test_rotated', rotated)).id).toBe(f.merchantId);
      } finally {
        await other.end();
      }
    },
  );
});

describe('coherence through the epoch alone', () => {
  // A merchant of their own: the Postgres test above changed the first one's key.
  it('a write naming merchants (raw SQL included) raises the epoch, so the next request looks the merchant up again', async () => {
    const f = await addTestMerchant(core);
    const before = await readEpoch();
    await merchantForKey(core.ctx, f.clientId, f.merchantKey, before);
    expect((await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, before)))[1]).toBe(0);
    await db().execute(sql`update merchants set status = 'suspended' where id = ${f.merchantId}`);
    const after = await readEpoch();
    expect(after).toBe(before + 1);
    const [m, n] = await statements(() => merchantForKey(core.ctx, f.clientId, f.merchantKey, after));
    expect([m.status, n]).toEqual(['suspended', 1]);
  });

  it('a row read inside an open transaction of an operation is not kept (it may yet roll back)', async () => {
    const f = await addTestMerchant(core);
    const e = await readEpoch();
    const other = { ...core.ctx, merchantCache: new MerchantCache() };
    await inTransaction(other, (_tx, scoped) => merchantForKey(scoped, f.clientId, f.merchantKey, e));
    expect((await statements(() => merchantForKey(other, f.clientId, f.merchantKey, e)))[1]).toBe(1);
    expect((await statements(() => merchantForKey(other, f.clientId, f.merchantKey, e)))[1]).toBe(0);
  });
});
