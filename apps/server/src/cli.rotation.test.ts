import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCore } from '@remit/core';
import { buildApp } from './app.js';
import { coreOptions, loadConfig } from './config.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { runCliCaptured } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

/** `credentials rotate --overlap`: the old secret keeps working beside the new one until the overlap ends. */
let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const dataDir = await seededDataDir('remit-cli-rotate');
  env = { REMIT_DATA_DIR: dataDir, REMIT_ENCRYPTION_KEY: 'e'.repeat(64) };
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_cli_rot') : null;
  if (db) env.DATABASE_URL = db.url;
  drop = async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => drop());

const cli = (...args: string[]) => runCliCaptured(args, env);

/** The status GET /api/v1/merchant answers each secret with, from a server on the CLI's database (started after the command: PGlite has one owner). */
async function statuses(clientId: string, ...secrets: string[]): Promise<number[]> {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const out: number[] = [];
    for (const s of secrets)
      out.push(
        (
          await send({
            method: 'GET',
            url: `${base}/api/v1/merchant`,
            headers: { authorization: basicAuth(clientId, s) },
          })
        ).status,
      );
    return out;
  } finally {
    await app.close();
    await core.close();
  }
}

it('--overlap 1h: old and new secrets both work; a rotation without it ends every older secret at once', async () => {
  const created = JSON.parse((await cli('credentials', 'create', '--json')).out) as {
    client_id: string;
    secret_key: string;
  };
  const before = Date.now();
  const r = await cli('credentials', 'rotate', created.client_id, '--overlap', '1h', '--json');
  expect(r.code).toBe(0);
  const rotated = JSON.parse(r.out) as { client_id: string; secret_key: string; previous_valid_until: string };
  expect(rotated.secret_key).toMatch(/^sk_test_/);
  expect(rotated.secret_key).not.toBe(created.secret_key);
  const until = Date.parse(rotated.previous_valid_until);
  expect(until - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
  expect(until - Date.now()).toBeLessThanOrEqual(3_600_000);
  expect(await statuses(created.client_id, created.secret_key, rotated.secret_key)).toEqual([200, 200]);

  const plain = await cli('credentials', 'rotate', created.client_id);
  expect(plain.code).toBe(0);
  expect(plain.err).toBe('The old secret key no longer works. Store the new one now: it cannot be shown again.\n');
  const newest = /secret_key: (\S+)/.exec(plain.out)![1]!;
  expect(await statuses(created.client_id, created.secret_key, rotated.secret_key, newest)).toEqual([401, 401, 200]);
}, 300_000);

it('--overlap 2s: once the overlap has passed, the old secret answers 401 and the new one 200', async () => {
  const created = JSON.parse((await cli('credentials', 'create', '--json')).out) as {
    client_id: string;
    secret_key: string;
  };
  const r = await cli('credentials', 'rotate', created.client_id, '--overlap=2s');
  expect(r.code).toBe(0);
  expect(r.err).toMatch(
    /^The old secret key keeps working until \d{4}-\d\d-\d\dT[\d:.]+Z\. Store the new one now: it cannot be shown again\.\n$/,
  );
  const fresh = /secret_key: (\S+)/.exec(r.out)![1]!;
  await new Promise((done) => setTimeout(done, 2_100));
  expect(await statuses(created.client_id, created.secret_key, fresh)).toEqual([401, 200]);
}, 300_000);

it.each([['--overlap', 'soon'], ['--overlap', '0s'], ['--overlap', '1.5h'], ['--overlap']])(
  'rotate %s %s: exit 2, what a duration looks like',
  async (...flag) => {
    const r = await cli('credentials', 'rotate', 'cl_whatever', ...flag.filter(Boolean));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^--overlap must be a duration like 15s, 30m, 24h or 7d, not /);
  },
);
