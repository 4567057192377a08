import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore } from '@remit/core';
import { buildApp } from './app.js';
import { runCli } from './cli.js';
import { coreOptions, loadConfig } from './config.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { captureIo } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

/**
 * `remit merchants check-deposit-account`: the operator records a merchant's account at the
 * configured check-deposit provider. Without a provider it is refused; with one, the merchant's
 * deposits go through. Servers and commands read the same environment (REMIT_CHECK_DEPOSITS).
 */

let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  const dataDir = await seededDataDir('remit-cli-cd');
  env = { REMIT_DATA_DIR: dataDir, REMIT_ENCRYPTION_KEY: 'c'.repeat(64), REMIT_CHECK_DEPOSITS: 'none' };
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_cli_cd') : null;
  if (db) env.DATABASE_URL = db.url;
  drop = async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => drop());

async function cli(e: Record<string, string>, ...args: string[]) {
  const io = captureIo();
  const code = await runCli(args, e, io);
  return { code, out: io.stdout, err: io.stderr };
}

/** A server on the CLI's database, for as long as `fn` runs (PGlite: one process owns the folder). */
async function withServer<T>(e: Record<string, string>, fn: (base: string) => Promise<T>): Promise<T> {
  const core = await openCore({ ...coreOptions(loadConfig(e)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    return await fn(base);
  } finally {
    await app.close();
    await core.close();
  }
}

async function deposit(base: string, auth: string, merchant_key: string) {
  const fd = new FormData();
  fd.append('amount', '5.00');
  fd.append('merchant_key', merchant_key);
  fd.append('device', 'iOS');
  fd.append('front_file', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])]), 'f.jpg');
  fd.append('back_file', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 4, 5, 6])]), 'b.jpg');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  return send<any>({
    method: 'POST',
    url: `${base}/api/v1/merchant/remote_deposit_capture`,
    headers: { authorization: auth, 'content-type': req.headers.get('content-type')! },
    raw: Buffer.from(await req.arrayBuffer()),
  });
}

describe('remit merchants check-deposit-account', () => {
  it('refused without a provider; recorded with one, and the merchant can deposit', async () => {
    const made = await cli(env, 'credentials', 'create', '--json');
    expect(made.code).toBe(0);
    const { client_id, secret_key } = JSON.parse(made.out);
    const auth = basicAuth(client_id, secret_key);

    // No provider: approval opens no account and a deposit is refused.
    const { merchantId, merchantKey } = await withServer(env, async (base) => {
      const onboarded = await send<any>({
        method: 'POST',
        url: `${base}/api/v1/onboarding`,
        headers: { authorization: auth },
        json: validOnboarding({}),
      });
      expect(onboarded.status, onboarded.text).toBe(201);
      const list = await send<any>({ method: 'GET', url: `${base}/api/v1/merchant`, headers: { authorization: auth } });
      const id = list.body.data[0].merchant_id as string;
      expect(
        (
          await send<any>({
            method: 'POST',
            url: `${base}/api/v1/approve-merchant`,
            headers: { authorization: auth },
            json: { merchant_id: id },
          })
        ).status,
      ).toBe(200);
      const res = await deposit(base, auth, onboarded.body.data.merchant_key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ach_account_not_found');
      return { merchantId: id, merchantKey: onboarded.body.data.merchant_key as string };
    });

    const refused = await cli(env, 'merchants', 'check-deposit-account', merchantId, 'acct-1');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('No check-deposit provider is configured (REMIT_CHECK_DEPOSITS)');

    const withProvider = { ...env, REMIT_CHECK_DEPOSITS: 'simulator' };
    expect((await cli(withProvider, 'merchants', 'check-deposit-account', merchantId)).code).toBe(2);
    const unknown = await cli(withProvider, 'merchants', 'check-deposit-account', 'm_nope', 'acct-1');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No merchant has the id m_nope.');
    const spaced = await cli(withProvider, 'merchants', 'check-deposit-account', merchantId, 'two words');
    expect(spaced.code).toBe(1);

    const recorded = await cli(withProvider, 'merchants', 'check-deposit-account', merchantId, 'rdc-42', '--json');
    expect(recorded.code, recorded.err).toBe(0);
    expect(JSON.parse(recorded.out)).toEqual({
      merchant_id: merchantId,
      provider: 'simulator',
      account: 'rdc-42',
      previous: null,
    });

    await withServer(withProvider, async (base) => {
      const res = await deposit(base, auth, merchantKey);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ result: true, message: 'Check deposit submitted.', data: { amount: '5.00' } });
    });
  }, 120_000);
});
