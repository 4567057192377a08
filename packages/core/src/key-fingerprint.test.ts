import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFingerprint } from './db/schema.js';
import { Vault } from './encryption.js';
import { KeyMismatchError } from './key-fingerprint.js';
import { openCore, type OpenOptions } from './open.js';
import { createTestDatabase, testDbKind, type TestDatabase } from './test-database.js';

/**
 * Two openings of one database with different encryption keys: on the test database kind, one
 * Postgres database (two pools at once, as two processes) or one PGlite data folder (one after
 * the other: the folder is held by one process at a time).
 */

let testDb: TestDatabase | null = null;
let dataDir: string;
beforeAll(async () => {
  testDb = testDbKind === 'postgres' ? await createTestDatabase('remit_key') : null;
  dataDir = mkdtempSync(join(tmpdir(), 'remit-key-'));
});
afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const open = (encryptionKey: Buffer, opts: Partial<OpenOptions> = {}) =>
  openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey,
    ...(testDb ? { databaseUrl: testDb.url } : { dataDir: join(dataDir, 'db') }),
    filesDir: join(dataDir, 'files'),
    ...opts,
  });

describe('the encryption key fingerprint', () => {
  const first = randomBytes(32);

  it('is an HMAC of a fixed label: it does not contain the key and differs per key', () => {
    const fp = new Vault(first).fingerprint();
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(fp).not.toContain(first.toString('hex'));
    expect(new Vault(Buffer.from(first)).fingerprint()).toBe(fp);
    expect(new Vault(randomBytes(32)).fingerprint()).not.toBe(fp);
  });

  it('is recorded by the first opening; the same key opens again; another key is refused and writes nothing', async () => {
    const a = await open(first);
    const rows = await a.ctx.db.select().from(keyFingerprint);
    expect(rows.map((r) => r.fingerprint)).toEqual([new Vault(first).fingerprint()]);
    // Postgres: a second process beside the first. PGlite: the folder is free only once the first stops.
    if (testDbKind === 'pglite') await a.close();

    const other = randomBytes(32);
    const refused = open(other);
    await expect(refused).rejects.toBeInstanceOf(KeyMismatchError);
    const err = (await refused.catch((e: Error) => e)) as Error;
    expect(err.message).toContain('REMIT_ENCRYPTION_KEY');
    expect(err.message).toContain('this database was set up with another encryption key');
    expect(err.message).toContain(new Vault(first).fingerprint().slice(0, 12));
    expect(err.message).toContain(new Vault(other).fingerprint().slice(0, 12));
    expect(err.message).not.toContain(first.toString('hex'));
    expect(err.message).not.toContain(other.toString('hex'));
    expect(err.message).not.toContain('\n');

    // The refused opening let go of the database (PGlite: the folder's lock), and recorded nothing.
    const again = await open(first);
    expect((await again.ctx.db.select().from(keyFingerprint)).map((r) => r.fingerprint)).toEqual([
      new Vault(first).fingerprint(),
    ]);
    await again.close();
    if (testDbKind === 'postgres') await a.close();
  });
});

describe.runIf(testDbKind === 'postgres')('two first openings at once on Postgres', () => {
  it('agree on one key: exactly one opens, the other is refused', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase('remit_key2');
    try {
      // Migrate first, so both race on the fingerprint rather than on the migrations.
      const k1 = randomBytes(32);
      const warm = await openCore({
        env: 'sandbox',
        publicUrl: 'http://127.0.0.1',
        encryptionKey: k1,
        databaseUrl: db.url,
      });
      await warm.ctx.db.delete(keyFingerprint);
      await warm.close();
      const results = await Promise.allSettled(
        [k1, randomBytes(32)].map((encryptionKey) =>
          openCore({ env: 'sandbox', publicUrl: 'http://127.0.0.1', encryptionKey, databaseUrl: db.url }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(rejected).toHaveLength(1);
      expect(rejected[0]!.reason).toBeInstanceOf(KeyMismatchError);
      for (const r of results) if (r.status === 'fulfilled') await r.value.close();
    } finally {
      await db.drop();
    }
  });
});
