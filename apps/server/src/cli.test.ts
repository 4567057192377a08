import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore } from '@remit/core';
import { basicAuth, send } from './testing/http.js';
import { buildApp } from './app.js';
import { runCli, USAGE } from './cli.js';
import { coreOptions, loadConfig } from './config.js';
import { createTestDatabase, testDbKind } from './testing/harness.js';
import { captureIo } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const cli = join(root, 'apps/server/src/cli.ts');

describe('remit CLI arguments', () => {
  it('--help prints the usage and exits 0', async () => {
    const io = captureIo();
    expect(await runCli(['--help'], {}, io)).toBe(0);
    expect(io.stdout).toBe(USAGE);
    expect(io.stdout).toContain('credentials create');
  });

  it('--version prints the version of the repository (package.json) and exits 0; from the built CLI too', async () => {
    const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['--version'], ['version']]) {
      const io = captureIo();
      expect(await runCli(args, {}, io)).toBe(0);
      expect([io.stdout, io.stderr]).toEqual([`${version}\n`, '']);
    }
    // As an operator runs it: `npm run remit -- --version`, through the built dist/cli.js.
    const { stdout } = await run('npm', ['run', '--silent', 'remit', '--', '--version'], { cwd: root });
    expect(stdout).toBe(`${version}\n`);
  });

  it('an unknown command exits 2 with the usage on stderr', async () => {
    const io = captureIo();
    expect(await runCli(['credentials', 'delete'], {}, io)).toBe(2);
    expect(io.stderr).toContain('Unknown command');
    expect(io.stdout).toBe('');
  });

  it('production without REMIT_ENCRYPTION_KEY exits 1 saying so', async () => {
    const io = captureIo();
    expect(await runCli(['credentials', 'create'], { REMIT_ENV: 'production', REMIT_DATA_DIR: tmpdir() }, io)).toBe(1);
    expect(io.stderr).toContain('REMIT_ENCRYPTION_KEY');
  });
});

/** A place for the CLI and a server to share: a fresh Postgres database, or a PGlite data directory. */
async function sharedStore(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (testDbKind === 'postgres') {
    const db = await createTestDatabase('remit_cli');
    const dataDir = mkdtempSync(join(tmpdir(), 'remit-cli-'));
    return {
      env: { DATABASE_URL: db.url, REMIT_DATA_DIR: dataDir },
      async drop() {
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const dataDir = await seededDataDir('remit-cli');
  return { env: { REMIT_DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** Starts a server on the configuration `env` describes and asks GET /merchant with the credentials. */
async function authenticates(env: Record<string, string>, clientId: string, secret: string) {
  const config = loadConfig(env);
  const core = await openCore({ ...coreOptions(config), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return await send({
      method: 'GET',
      url: `${address}/api/v1/merchant`,
      headers: { authorization: basicAuth(clientId, secret) },
    });
  } finally {
    await app.close();
    await core.close();
  }
}

describe.each([
  ['sandbox', 'sk_test_', {}],
  ['production', 'sk_live_', { REMIT_ENV: 'production', REMIT_ENCRYPTION_KEY: randomBytes(32).toString('hex') }],
] as const)('npm run remit -- credentials create (%s)', (_env, prefix, extraEnv) => {
  let store: Awaited<ReturnType<typeof sharedStore>>;
  beforeAll(async () => {
    store = await sharedStore();
  });
  afterAll(() => store.drop());

  it(`prints ${prefix} credentials that a server on the same data accepts`, { timeout: 180_000 }, async () => {
    const env = { ...store.env, ...extraEnv };
    const { stdout } = await run(tsx, [cli, 'credentials', 'create', '--json'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    const creds = JSON.parse(stdout);
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'secret_key']);
    expect(creds.client_id).toMatch(/^cl_[0-9A-Za-z]{20}$/);
    expect(creds.secret_key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{32}$`));

    const ok = await authenticates(env, creds.client_id, creds.secret_key);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ result: true, data: [] });
    const wrong = await authenticates(env, creds.client_id, `${prefix}${'x'.repeat(32)}`);
    expect(wrong.status).toBe(401);
  });
});
