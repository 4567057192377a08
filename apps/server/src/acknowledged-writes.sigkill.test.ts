import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send, basicAuth } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { startProcess, type ServerProcess } from './testing/process.js';

let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let dataDir: string;
const procs: ServerProcess[] = [];

beforeAll(async () => {
  if (testDbKind === 'postgres') db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'remit-acked-kill-'));
});
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const encryptionKey = randomBytes(32).toString('hex');
async function startServer(): Promise<ServerProcess> {
  const server = await startProcess('apps/server/src/main.ts', {
    REMIT_ENV: 'sandbox',
    REMIT_ENCRYPTION_KEY: encryptionKey,
    DATABASE_URL: db?.url ?? '',
    REMIT_DATA_DIR: dataDir,
    REMIT_WORKERS: 'off',
  });
  procs.push(server);
  return server;
}

it('every write answered 2xx survives a SIGKILL of the server', async () => {
  let server = await startServer();
  const cred = await send<{ client_id: string; secret_key: string }>({ method: 'POST', url: `${server.base}/portal/api/credentials` });
  expect(cred.status).toBe(201);
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const acked: string[] = [];
  for (let round = 0; round < 3; round++) {
    const names = Array.from({ length: 15 }, (_, i) => `Shop ${round}-${i}`);
    const inFlight = names.map(async (name) => {
      const r = await send({ method: 'POST', url: `${server.base}/api/v1/onboarding`, headers: { authorization }, json: validOnboarding({ business_name: name }) });
      if (r.status === 201) acked.push(name);
      return r;
    }).map((p) => p.catch(() => null));
    // Killed the moment the last of them is answered: nothing after the answer had time to run.
    await Promise.all(inFlight);
    await server.stop('SIGKILL');
    server = await startServer();
    const list = await send<{ data: { businessname: string }[] }>({ method: 'GET', url: `${server.base}/api/v1/merchant`, headers: { authorization } });
    expect(list.status).toBe(200);
    const stored = new Set(list.body.data.map((m) => m.businessname));
    expect(acked.filter((n) => !stored.has(n))).toEqual([]);
  }
  expect(acked.length).toBe(45);
}, 180_000);
