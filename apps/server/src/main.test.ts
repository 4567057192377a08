import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { basicAuth, send } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { startProcess } from './testing/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'remit-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// `npm start` without DATABASE_URL: embedded PGlite in the data directory, kept across restarts.
const env = { REMIT_DATA_DIR: dataDir, DATABASE_URL: '', REMIT_ENCRYPTION_KEY: '' };

it('serves on PGlite in REMIT_DATA_DIR and keeps the data across a restart', async () => {
  const first = await startProcess('apps/server/src/main.ts', env);
  // A new data folder: the wait is announced (it is silent only once the folder holds a database).
  expect(first.output()).toContain(`remit: initialising database in ${dataDir}…`);
  const health = await send({ method: 'GET', url: `${first.base}/healthz` });
  expect(health.body).toEqual({ status: 'ok' });
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${first.base}/portal/api/credentials`,
  });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const onboarded = await send<any>({
    method: 'POST',
    url: `${first.base}/api/v1/onboarding`,
    headers: { authorization },
    json: validOnboarding({ business_name: 'Kept Across Restarts' }),
  });
  expect(onboarded.status).toBe(201);
  await first.stop('SIGTERM');
  expect(first.proc.exitCode).toBe(0);

  // The generated sandbox encryption key is kept beside the data, readable by its owner only.
  expect(statSync(join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);

  const second = await startProcess('apps/server/src/main.ts', env);
  expect(second.output()).not.toContain('initialising database');
  try {
    const list = await send<any>({ method: 'GET', url: `${second.base}/api/v1/merchant`, headers: { authorization } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { businessname: string }) => m.businessname)).toEqual(['Kept Across Restarts']);
    // The owner call decrypts the merchant_key with the key kept in the data directory.
    const id = list.body.data[0].merchant_id;
    const owner = await send<any>({
      method: 'GET',
      url: `${second.base}/api/v1/merchant/${id}`,
      headers: { authorization },
    });
    expect(owner.body.data.merchant_key).toBe(onboarded.body.data.merchant_key);
  } finally {
    await second.stop();
  }
}, 180_000);
