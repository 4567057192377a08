import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCredentials, openCore, type Core } from '@remit/core';
import { createTestDatabase } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * Two real server processes on one Postgres (always the local Postgres: sharing a database between
 * processes is what the limits' table is for): a limit holds across both, not per process.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let core: Core;
let a: ServerProcess;
let b: ServerProcess;
const encryptionKey = randomBytes(32);

beforeAll(async () => {
  db = await createTestDatabase();
  // Migrate once here, so the two servers start on a ready schema.
  core = await openCore({ env: 'sandbox', publicUrl: 'http://127.0.0.1', encryptionKey, databaseUrl: db.url });
  const env = {
    DATABASE_URL: db.url,
    REMIT_ENCRYPTION_KEY: encryptionKey.toString('hex'),
    REMIT_WORKERS: 'off',
    REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS: '4/1h',
    REMIT_RATE_LIMIT_API_PER_CLIENT: '10/1h',
    REMIT_RATE_LIMIT_CREDENTIALS_PER_ADDRESS: '4/1h',
  };
  [a, b] = await Promise.all([
    startProcess('apps/server/src/main.ts', env),
    startProcess('apps/server/src/main.ts', env),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  await core.close();
  await db.drop();
});

const credentials = (base: string) =>
  send<{ client_id: string; secret_key: string }>({ method: 'POST', url: `${base}/portal/api/credentials` });
const merchants = (base: string, id: string, secret: string) =>
  send<{ code?: string }>({
    method: 'GET',
    url: `${base}/api/v1/merchant`,
    headers: { authorization: basicAuth(id, secret) },
  });

it('credential creation: 4 per address in all, two on each process, then both refuse', async () => {
  const made = [
    await credentials(a.base),
    await credentials(b.base),
    await credentials(a.base),
    await credentials(b.base),
  ];
  expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201]);
  for (const base of [a.base, b.base]) {
    const res = await credentials(base);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ result: false, code: 'rate_limited' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
});

it('failed authentication per client id and address: 4 failures spread over both processes lock the id on both', async () => {
  const { client_id, secret_key } = await createCredentials(core.ctx);
  const statuses = [];
  for (const base of [a.base, b.base, a.base, b.base])
    statuses.push((await merchants(base, client_id, 'sk_test_wrong')).status);
  expect(statuses).toEqual([401, 401, 401, 401]);
  for (const base of [a.base, b.base]) {
    const res = await merchants(base, client_id, secret_key);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
  }
});

it('the API per client: 6 requests on one process and 6 on the other, 10 answered in all', async () => {
  const { client_id, secret_key } = await createCredentials(core.ctx);
  const onA = [];
  for (let i = 0; i < 6; i++) onA.push((await merchants(a.base, client_id, secret_key)).status);
  const onB = [];
  for (let i = 0; i < 6; i++) onB.push((await merchants(b.base, client_id, secret_key)).status);
  expect(onA).toEqual([200, 200, 200, 200, 200, 200]);
  // Counting alone, B would answer all six.
  expect(onB).toEqual([200, 200, 200, 200, 429, 429]);
});

it('the API per client: 30 concurrent requests over both processes, exactly 10 answered', async () => {
  const { client_id, secret_key } = await createCredentials(core.ctx);
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) => merchants(i % 2 ? a.base : b.base, client_id, secret_key)),
  );
  expect(results.filter((r) => r.status === 200)).toHaveLength(10);
  expect(results.filter((r) => r.status === 429)).toHaveLength(20);
  expect(results.every((r) => r.status !== 429 || Number(r.headers['retry-after']) > 0)).toBe(true);
}, 60_000);
