import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Vault } from '@remit/core';
import { basicAuth, send } from './testing/http.js';
import { testDbKind } from './testing/harness.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * On PGlite the server owns its data folder, so the rotation's reseal runs inside it (docs/operations.md
 * "Rotating the encryption key"): started with the new key and the old one as previous, it reseals by
 * itself and logs when the old key can go; then the new key alone opens everything. Postgres runs the
 * CLI beside its servers instead (encryption-key.rotation.test.ts).
 */
const A = randomBytes(32).toString('hex');
const B = randomBytes(32).toString('hex');
const idA = new Vault(Buffer.from(A, 'hex')).keyId;
const idB = new Vault(Buffer.from(B, 'hex')).keyId;
const dir = mkdtempSync(join(tmpdir(), 'remit-bg-reseal-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(keys: { REMIT_ENCRYPTION_KEY: string; REMIT_ENCRYPTION_KEY_PREVIOUS?: string }) {
  const s = await startProcess('apps/server/src/main.ts', {
    REMIT_ENV: 'sandbox',
    REMIT_DATA_DIR: dir,
    DATABASE_URL: '',
    REMIT_ENCRYPTION_KEY_PREVIOUS: '',
    LOG_LEVEL: 'info',
    ...keys,
  });
  servers.push(s);
  return s;
}

/** The client's webhook signing secret, sealed at rest: registering the same URL again gives it back. */
const signingSecret = async (s: ServerProcess, auth: string) => {
  const res = await send<{ signing_secret: string }>({
    method: 'POST',
    url: `${s.base}/api/v1/client/update-webhooks-url`,
    headers: { authorization: auth },
    json: { webhook_url: 'http://127.0.0.1:9/hooks' },
  });
  expect(res.status).toBe(200);
  return res.body.signing_secret;
};

describe.skipIf(testDbKind === 'postgres')('the encryption key rotated on PGlite', () => {
  it('a start with the old key as previous reseals by itself and says the old key can go; the new key alone then reads', {
    timeout: 180_000,
  }, async () => {
    const first = await serve({ REMIT_ENCRYPTION_KEY: A });
    const creds = await send<{ client_id: string; secret_key: string }>({
      method: 'POST',
      url: `${first.base}/portal/api/credentials`,
    });
    const auth = basicAuth(creds.body.client_id, creds.body.secret_key);
    const secret = await signingSecret(first, auth);
    expect(secret).toMatch(/^whsec_/);
    await first.stop();

    const rotating = await serve({ REMIT_ENCRYPTION_KEY: B, REMIT_ENCRYPTION_KEY_PREVIOUS: A });
    const done = `keys: Every value is sealed with key ${idB}; nothing sealed with the previous key (${idA}) is left. REMIT_ENCRYPTION_KEY_PREVIOUS can be removed (restart each process without it).`;
    const until = Date.now() + 60_000;
    while (!rotating.output().includes(done) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const logged = rotating
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"keys: '))
      .map((l) => JSON.parse(l).msg);
    expect(logged).toEqual([`keys: resealing every value with key ${idB} in the background`, done]);
    expect(await signingSecret(rotating, auth)).toBe(secret);
    await rotating.stop();

    const after = await serve({ REMIT_ENCRYPTION_KEY: B });
    expect(await signingSecret(after, auth)).toBe(secret);
    expect(after.output()).not.toContain('keys: ');
  });
});
