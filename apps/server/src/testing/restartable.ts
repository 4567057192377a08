import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { startProcess, type ServerProcess } from './process.js';
import { seededDataDir } from './data-dir.js';

export interface RestartableServer {
  /** Starts a server process on the suite's database. */
  start(): Promise<ServerProcess>;
  /** Where its data is: the Postgres database's URL, or the embedded database's folder. */
  where(): { databaseUrl?: string; dataDir: string };
}

/**
 * A sandbox server run as its own process, on one database that outlives it (a PGlite data folder,
 * or with `REMIT_TEST_DB=postgres` a Postgres database of its own): a test kills it and starts it
 * again. Registers the suite's setup and cleanup; call at the top of a test file.
 */
export function restartableServer(env: Record<string, string> = {}): RestartableServer {
  let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
  let dataDir = '';
  const procs: ServerProcess[] = [];
  const encryptionKey = randomBytes(32).toString('hex');
  beforeAll(async () => {
    if (testDbKind === 'postgres') db = await createTestDatabase();
    dataDir = await seededDataDir('remit-restartable');
  });
  afterAll(async () => {
    for (const p of procs) await p.stop('SIGKILL');
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    const server = await startProcess('apps/server/src/main.ts', {
      REMIT_ENV: 'sandbox',
      REMIT_ENCRYPTION_KEY: encryptionKey,
      DATABASE_URL: db?.url ?? '',
      REMIT_DATA_DIR: dataDir,
      REMIT_WORKERS: 'off',
      ...env,
    });
    procs.push(server);
    return server;
  };
  return { start, where: () => ({ databaseUrl: db?.url, dataDir }) };
}
