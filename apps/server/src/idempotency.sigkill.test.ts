import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { send, basicAuth } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * A server process is SIGKILLed with requests in flight: their Idempotency-Key claims are never
 * completed. On the next process the client's retry of such a key is 409 in progress only until the
 * lease (REMIT_IDEMPOTENCY_LEASE_MS) runs out, then it runs. On PGlite the kill also crashes the
 * embedded database: the claim, committed before the kill, is still there after recovery.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let dataDir: string;
const procs: ServerProcess[] = [];
// Longer than a restart takes, so the first retries land inside it.
const LEASE_MS = 10_000;

beforeAll(async () => {
  if (testDbKind === 'postgres') db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'remit-idem-kill-'));
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
    REMIT_IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
  });
  procs.push(server);
  return server;
}

const onboard = (base: string, authorization: string, key: string) =>
  send({ method: 'POST', url: `${base}/api/v1/onboarding`, headers: { authorization, 'idempotency-key': key }, json: validOnboarding({ business_name: `Shop ${key}` }) });

/**
 * SIGKILLs the server while it works through `inFlight`: a little after the second answer, at a
 * different delay each round. On Postgres the requests run side by side, so claims are open at any
 * moment. On PGlite the database runs inside the server's thread and the server takes requests one
 * after another (the next is read once the previous answer is out), so a kill right on an answer
 * lands before the next request has claimed its key: the delay puts it inside the next request.
 */
async function killMidway(server: ServerProcess, inFlight: Promise<unknown>[], delayMs: number) {
  let answers = 0;
  await new Promise<void>((resolve) => {
    for (const p of inFlight) void p.then(() => ++answers === 2 && resolve());
  });
  await new Promise((r) => setTimeout(r, delayMs));
  await server.stop('SIGKILL');
}

it('SIGKILL mid-request: the stuck key frees itself after the lease and the retry succeeds', async () => {
  let server = await startServer();
  const cred = await send<{ client_id: string; secret_key: string }>({ method: 'POST', url: `${server.base}/portal/api/credentials` });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const stuck: string[] = [];
  for (let round = 0; round < 6 && stuck.length === 0; round++) {
    const keys = Array.from({ length: 12 }, (_, i) => `kill-${round}-${i}`);
    const inFlight = keys.map((k) => onboard(server.base, authorization, k).catch(() => null));
    await killMidway(server, inFlight, [12, 24, 6, 36, 18, 48][round]!);
    await Promise.all(inFlight);
    server = await startServer();
    for (const k of keys) {
      const r = await onboard(server.base, authorization, k);
      if (r.status === 409) {
        expect(r.body).toMatchObject({ code: 'idempotency_key_in_progress' });
        stuck.push(k);
      } else {
        expect(r.status).toBe(201);
      }
    }
  }
  // The kill left at least one key claimed and never completed.
  expect(stuck.length).toBeGreaterThan(0);
  await new Promise((r) => setTimeout(r, LEASE_MS + 500));
  for (const k of stuck) {
    const retry = await onboard(server.base, authorization, k);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    // ... and from then on it is replayed like any completed key.
    const again = await onboard(server.base, authorization, k);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(retry.body);
  }
}, 180_000);
