import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { connectDatabase, schema } from '@remit/core';
import { send, basicAuth } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import type { ServerProcess } from './testing/process.js';
import { restartableServer } from './testing/restartable.js';

/**
 * A server process is SIGKILLed with requests in flight: their Idempotency-Key claims are never
 * completed. On the next process the client's retry of such a key is 409 in progress only until the
 * lease (REMIT_IDEMPOTENCY_LEASE_MS) runs out, then it runs. On PGlite the kill also crashes the
 * embedded database: the claim, committed before the kill, is still there after recovery.
 */
// Longer than a restart takes, so the first retries land inside it.
const LEASE_MS = 25_000;
const suite = restartableServer({ REMIT_IDEMPOTENCY_LEASE_MS: String(LEASE_MS) });
const startServer = suite.start;

const onboard = (base: string, authorization: string, key: string) =>
  send({
    method: 'POST',
    url: `${base}/api/v1/onboarding`,
    headers: { authorization, 'idempotency-key': key },
    json: validOnboarding({ business_name: `Shop ${key}` }),
  });

/**
 * The keys claimed and not completed, as the database holds them now. On PGlite the folder belongs
 * to the server: a copy of it is opened instead (taken while the server is stopped, it is what a
 * kill at that moment would leave, and PGlite recovers it the same way).
 */
async function openClaims(): Promise<string[]> {
  const { databaseUrl, dataDir } = suite.where();
  const copy = databaseUrl ? null : mkdtempSync(join(tmpdir(), 'remit-claims-'));
  if (copy) {
    cpSync(dataDir, copy, { recursive: true });
    rmSync(join(copy, 'remit.pid'), { force: true });
  }
  const database = await connectDatabase(copy ? { dataDir: copy } : { databaseUrl });
  try {
    const rows = await database.db
      .select({ key: schema.idempotencyKeys.key })
      .from(schema.idempotencyKeys)
      .where(eq(schema.idempotencyKeys.statusCode, 0));
    return rows.map((r) => r.key);
  } finally {
    await database.close();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * SIGKILLs the server at a moment it holds a claim it has not completed: the server is stopped
 * (SIGSTOP), the database looked at, and the server killed if a claim is open, else let go on. Returns
 * the keys the kill left claimed. Timing alone would not do on PGlite: the server takes the requests
 * one after another there, and a kill on an answer lands before the next request claims its key.
 */
async function killWhileClaimed(server: ServerProcess, inFlight: Promise<unknown>[]): Promise<string[]> {
  let answered = 0;
  for (const p of inFlight) void p.then(() => answered++);
  for (let attempt = 0; answered < inFlight.length; attempt++) {
    server.proc.kill('SIGSTOP');
    const open = await openClaims();
    if (open.length) {
      await server.stop('SIGKILL');
      return open;
    }
    server.proc.kill('SIGCONT');
    await new Promise((r) => setTimeout(r, 3 + (attempt % 5) * 7));
  }
  await server.stop('SIGKILL');
  return [];
}

it('SIGKILL mid-request: the stuck key frees itself after the lease and the retry succeeds', async () => {
  let server = await startServer();
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${server.base}/portal/api/credentials`,
  });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const stuck: string[] = [];
  // A kill catches a claim open by chance (the server answers a claim within milliseconds): up to
  // six rounds, most runs need one.
  for (let round = 0; round < 6 && stuck.length === 0; round++) {
    const keys = Array.from({ length: 12 }, (_, i) => `kill-${round}-${i}`);
    const inFlight = keys.map((k) => onboard(server.base, authorization, k).catch(() => null));
    const open = await killWhileClaimed(server, inFlight);
    await Promise.all(inFlight);
    server = await startServer();
    for (const k of keys) {
      const r = await onboard(server.base, authorization, k);
      if (open.includes(k)) {
        // Claimed, never completed: in progress until the lease runs out.
        expect(r.status).toBe(409);
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
}, 300_000);
