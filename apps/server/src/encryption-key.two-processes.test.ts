import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { runToExit, startProcess, type ServerProcess } from './testing/process.js';

/**
 * A server started with another encryption key than the one its database was set up with stops at
 * once, with one line naming REMIT_ENCRYPTION_KEY, instead of sealing with a second key. Postgres:
 * two sandbox processes with their own data folders (each would make its own key) on one database.
 * PGlite: one data folder, restarted with another key.
 */
const root = mkdtempSync(join(tmpdir(), 'remit-keys-'));
const procs: ServerProcess[] = [];
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  await drop?.();
  rmSync(root, { recursive: true, force: true });
});

const REFUSED =
  /^remit: cannot open .*: this database was set up with another encryption key \(fingerprint [0-9a-f]{12}; this process has [0-9a-f]{12}\)\. Every process on one database must use the same key: set REMIT_ENCRYPTION_KEY to the key the other processes use/;

it('the second start with another key exits 1 with one line naming REMIT_ENCRYPTION_KEY; the first keeps serving', {
  timeout: 240_000,
}, async () => {
  const base = { REMIT_ENV: 'sandbox', REMIT_WORKERS: 'off', REMIT_ENCRYPTION_KEY: '' };
  let env: Record<string, string>;
  let otherEnv: Record<string, string>;
  if (testDbKind === 'postgres') {
    const db = await createTestDatabase();
    drop = db.drop;
    env = { ...base, DATABASE_URL: db.url, REMIT_DATA_DIR: join(root, 'a') };
    otherEnv = { ...base, DATABASE_URL: db.url, REMIT_DATA_DIR: join(root, 'b') };
  } else {
    env = { ...base, DATABASE_URL: '', REMIT_DATA_DIR: join(root, 'a') };
    otherEnv = { ...env, REMIT_ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  }
  const first = await startProcess('apps/server/src/main.ts', env);
  procs.push(first);
  // The embedded database is held by one process at a time: it is stopped before the restart.
  if (testDbKind === 'pglite') await first.stop('SIGTERM');

  const second = await runToExit('apps/server/src/main.ts', otherEnv);
  expect(second.code).toBe(1);
  const lines = second.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(REFUSED);

  if (testDbKind === 'postgres') {
    const health = await fetch(`${first.base}/healthz`);
    expect(health.status).toBe(200);
  } else {
    // The same folder with its own key starts again.
    const again = await startProcess('apps/server/src/main.ts', env);
    procs.push(again);
    expect((await fetch(`${again.base}/healthz`)).status).toBe(200);
  }
});
