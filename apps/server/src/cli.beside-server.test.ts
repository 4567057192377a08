import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { basicAuth, send } from './testing/http.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * `npm run remit -- credentials create` beside a running server. On the embedded database the
 * server owns the folder: the CLI refuses, and writes nothing beside it. On Postgres both may run,
 * and the server sees the new credentials at once.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let dataDir: string;
const procs: ServerProcess[] = [];
const env = () => ({
  REMIT_ENV: 'sandbox',
  REMIT_ENCRYPTION_KEY: key,
  DATABASE_URL: db?.url ?? '',
  REMIT_DATA_DIR: dataDir,
  REMIT_WORKERS: 'off',
});
const key = randomBytes(32).toString('hex');

beforeAll(async () => {
  if (testDbKind === 'postgres') db = await createTestDatabase();
  dataDir = join(mkdtempSync(join(tmpdir(), 'remit-cli-')), 'data');
});
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  await db?.drop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
});

async function server() {
  const p = await startProcess('apps/server/src/main.ts', env());
  procs.push(p);
  return p;
}

function cli(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli.ts', 'credentials', 'create', '--json'],
      { cwd: root, env: { ...process.env, ...env() } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const authenticates = async (base: string, creds: { client_id: string; secret_key: string }) =>
  (
    await send({
      method: 'GET',
      url: `${base}/api/v1/merchant`,
      headers: { authorization: basicAuth(creds.client_id, creds.secret_key) },
    })
  ).status;

it('credentials create beside a running server: refused on the embedded database, seen at once on Postgres', async () => {
  let s = await server();
  const beside = await cli();
  if (testDbKind === 'pglite') {
    expect(beside.code).toBe(1);
    expect(beside.stdout).toBe('');
    expect(beside.stderr).toContain(
      `the embedded database in ${dataDir} is in use by another Remit process (pid ${s.proc.pid})`,
    );
    expect(beside.stderr).toContain('Stop that server first');
    // The server still answers; then, stopped, the CLI runs and the next server sees its credentials.
    expect((await send({ method: 'GET', url: `${s.base}/healthz` })).status).toBe(200);
    await s.stop('SIGTERM');
    const after = await cli();
    expect(after.code).toBe(0);
    s = await server();
    expect(await authenticates(s.base, JSON.parse(after.stdout))).toBe(200);
    // A server killed outright leaves a stale lock: the CLI takes it over.
    await s.stop('SIGKILL');
    const stale = await cli();
    expect(stale.code).toBe(0);
    s = await server();
    expect(await authenticates(s.base, JSON.parse(stale.stdout))).toBe(200);
  } else {
    expect(beside.code).toBe(0);
    expect(await authenticates(s.base, JSON.parse(beside.stdout))).toBe(200);
  }
}, 180_000);

// The embedded database's folder on every run (on the Postgres run too: the folder is PGlite's).
it('the data folder is owner-only: the folder 0700, no file readable by others', async () => {
  const folder = join(dataDir, '..', 'owner-only');
  const p = await startProcess('apps/server/src/main.ts', { ...env(), DATABASE_URL: '', REMIT_DATA_DIR: folder });
  procs.push(p);
  expect((await send({ method: 'POST', url: `${p.base}/portal/api/credentials` })).status).toBe(201);
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  await p.stop('SIGTERM');
  const open: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (statSync(path).mode & 0o077) open.push(path);
      if (e.isDirectory()) walk(path);
    }
  };
  walk(folder);
  expect(readdirSync(folder).length).toBeGreaterThan(10);
  expect(open).toEqual([]);
}, 120_000);
