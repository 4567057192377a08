import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openCore, type Core, type OpenOptions } from '../open.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-database.js';
import { addTestMerchant } from '../payments/test-support.js';
import { parseDepositUpload, submitDeposit } from '../payments/deposits.js';

/**
 * Check images an earlier version kept as files under the data directory move into the database
 * at start, once: on Postgres two servers starting together on one database and one directory
 * move each image once; on PGlite a second start finds nothing left to move.
 */

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(300)]);

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function rowsOf<T>(core: Core, q: ReturnType<typeof sql>): Promise<T[]> {
  return ((await core.ctx.db.execute(q)) as unknown as { rows: T[] }).rows;
}

/** A database and data directory as an earlier version left them: two deposits whose images are files, and one stray file. */
async function legacySetup() {
  const db: TestDatabase | null = testDbKind === 'postgres' ? await createTestDatabase('remit_ci') : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'remit-ci-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (db) cleanup.push(() => db.drop());
  const opts: OpenOptions = {
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: db?.url,
    dataDir: db ? undefined : join(dataDir, 'db'),
    filesDir: dataDir,
  };
  const core = await openCore(opts);
  const f = await addTestMerchant(core);
  const ids: string[] = [];
  for (const amount of ['10.00', '20.00']) {
    const parsed = parseDepositUpload({
      amount,
      merchant_key: f.merchantKey,
      device: 'iOS',
      front_file: JPEG,
      back_file: PNG,
    });
    ids.push((await submitDeposit(core.ctx, await f.merchant(), parsed)).data.transactionId);
  }
  // As the earlier version stored them: files, and their paths in deposit_info.
  const dir = join(dataDir, 'deposits', f.merchantId);
  mkdirSync(dir, { recursive: true });
  for (const id of ids) {
    writeFileSync(join(dir, `${id}-front.jpg`), JPEG);
    writeFileSync(join(dir, `${id}-back.png`), PNG);
    await core.ctx.db.execute(sql`delete from check_images where transaction_id = ${id}`);
    await core.ctx.db.execute(
      sql`update transactions set deposit_info = ${JSON.stringify({ device: 'iOS', front: `deposits/${f.merchantId}/${id}-front.jpg`, back: `deposits/${f.merchantId}/${id}-back.png` })}::jsonb where id = ${id}`,
    );
  }
  writeFileSync(join(dir, 'txn_unknown-front.jpg'), JPEG);
  await core.close();
  return { opts, ids, dir, merchantId: f.merchantId };
}

async function expectMoved(core: Core, ids: string[], dir: string) {
  const stored = await rowsOf<{ transaction_id: string; side: string; content_type: string; data: Uint8Array }>(
    core,
    sql`select transaction_id, side, content_type, data from check_images order by transaction_id, side desc`,
  );
  expect(stored.map((r) => [r.transaction_id, r.side, r.content_type])).toEqual(
    [...ids].sort().flatMap((id) => [
      [id, 'front', 'image/jpeg'],
      [id, 'back', 'image/png'],
    ]),
  );
  for (const r of stored) expect(Buffer.from(r.data)).toEqual(r.side === 'front' ? JPEG : PNG);
  const info = await rowsOf<{ deposit_info: unknown }>(
    core,
    sql`select deposit_info from transactions where payment_method = 'ach' order by id`,
  );
  expect(info.map((r) => r.deposit_info)).toEqual([{ device: 'iOS' }, { device: 'iOS' }]);
  // Moved files are gone; the file of no known deposit is left where it was.
  expect(readdirSync(dir)).toEqual(['txn_unknown-front.jpg']);
}

describe('check images move from the data directory into the database at start', () => {
  it.runIf(testDbKind === 'postgres')(
    'two servers starting together on one Postgres and one directory move each image once',
    async () => {
      const { opts, ids, dir } = await legacySetup();
      const [a, b] = await Promise.all([openCore(opts), openCore(opts)]);
      cleanup.push(
        () => a.close(),
        () => b.close(),
      );
      expect([a.movedCheckImages.moved, b.movedCheckImages.moved].sort()).toEqual([0, 4]);
      await expectMoved(a, ids, dir);
      // A later start finds nothing more to move.
      const c = await openCore(opts);
      cleanup.push(() => c.close());
      expect(c.movedCheckImages).toEqual({ moved: 0, left: [join(dir, 'txn_unknown-front.jpg')] });
    },
    60_000,
  );

  it('on the embedded database: the first start moves them, the next moves none', async () => {
    const { opts, ids, dir } = await legacySetup();
    const first = await openCore(opts);
    try {
      expect(first.movedCheckImages).toEqual({ moved: 4, left: [join(dir, 'txn_unknown-front.jpg')] });
      await expectMoved(first, ids, dir);
    } finally {
      await first.close();
    }
    const again = await openCore(opts);
    cleanup.push(() => again.close());
    expect(again.movedCheckImages.moved).toBe(0);
    await expectMoved(again, ids, dir);
    expect(existsSync(join(dir, '..'))).toBe(true);
  }, 180_000);
});
