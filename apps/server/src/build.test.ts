import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { basicAuth, send } from './testing/http.js';
import { serverBuildIsFresh, startProcess } from './testing/process.js';

/**
 * The production build: `npm start` runs node on the compiled server (apps/server/dist/main.js)
 * directly, no tsx, so SIGTERM sent to the `npm start` the operator started reaches the server.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'remit-build-'));
let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;

beforeAll(async () => {
  // The bundle of the code under test (the pay page and portal come from `pretest`'s build). Built here
  // only if stale: other files run the build as their server processes meanwhile (testing/process.ts).
  if (!serverBuildIsFresh())
    execFileSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: root, stdio: 'pipe' });
  if (testDbKind === 'postgres') db = await createTestDatabase('remit_t', 'empty');
}, 60_000);
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the bundle imports no development tool and finds its files by path', () => {
  const bundle = readFileSync(join(root, 'apps/server/dist/main.js'), 'utf8');
  const packageOf = (spec: string) =>
    spec
      .split('/')
      .slice(0, spec.startsWith('@') ? 2 : 1)
      .join('/');
  const imported = new Set([...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => packageOf(m[1]!)));
  expect(imported).toContain('fastify');
  const runtime = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies);
  const core = Object.keys(JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8')).dependencies);
  for (const name of imported) {
    if (name.startsWith('node:')) continue;
    expect([...runtime, ...core], `${name} is imported at run time`).toContain(name);
  }
  // tsx is never loaded (the root package.json's scripts, bundled for the version, may name it).
  expect(bundle).not.toMatch(/(from |import\(|require\()["']tsx/);
  expect(existsSync(join(root, 'apps/server/dist/cli.js'))).toBe(true);
});

it('npm start runs node on the compiled server, and SIGTERM to npm stops it with exit code 0', async () => {
  const server = await startProcess(
    'npm start',
    {
      DATABASE_URL: db?.url ?? '',
      REMIT_DATA_DIR: dataDir,
      REMIT_ENCRYPTION_KEY: '',
    },
    { command: ['npm', 'start', '--ignore-scripts'] },
  );
  try {
    // npm's one child is the server itself: `exec` replaced the shell, and no tsx sits between.
    const children = readFileSync(`/proc/${server.proc.pid}/task/${server.proc.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/);
    expect(children).toHaveLength(1);
    const cmdline = readFileSync(`/proc/${children[0]}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(cmdline.slice(-1)).toEqual(['apps/server/dist/main.js']);
    expect(cmdline.join(' ')).not.toContain('tsx');

    // The built pay page, portal and migrations are found from the bundle.
    expect((await send({ method: 'GET', url: `${server.base}/portal` })).status).toBe(200);
    const cred = await send<{ client_id: string; secret_key: string }>({
      method: 'POST',
      url: `${server.base}/portal/api/credentials`,
    });
    expect(cred.status).toBe(201);
    // The test kit's controls exist only in its own sandboxes (@remit/testing): not here, even with credentials.
    const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
    for (const [method, path] of [
      ['POST', '/testing/fail'],
      ['POST', '/testing/reset'],
      ['POST', '/testing/clock/advance'],
      ['GET', '/testing/webhooks/next'],
      ['GET', '/testing/messages/next'],
      ['POST', '/testing/trigger'],
    ] as const) {
      const answer = await send<{ code: string }>({
        method,
        url: `${server.base}${path}`,
        headers: { authorization },
        json: method === 'POST' ? { outcome: 'decline', by: '1h', event_type: 'ach.update' } : undefined,
      });
      expect([answer.status, answer.body.code], path).toEqual([404, 'route_not_found']);
    }
    const openapi = await send<{ paths: object }>({ method: 'GET', url: `${server.base}/api/v1/openapi.json` });
    expect(Object.keys(openapi.body.paths).filter((p) => p.startsWith('/testing'))).toEqual([]);

    await server.stop('SIGTERM');
    expect(server.proc.exitCode).toBe(0);
    expect(existsSync(`/proc/${children[0]}`)).toBe(false);
    await expect(send({ method: 'GET', url: `${server.base}/healthz`, timeoutMs: 1000 })).rejects.toThrow();
  } finally {
    await server.stop('SIGKILL');
  }
}, 120_000);
