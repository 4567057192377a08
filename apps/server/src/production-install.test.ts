import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { basicAuth, send } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { TEST_CARD } from './testing/payments.js';
import { serverBuildIsFresh, type ServerProcess, startProcess } from './testing/process.js';

/**
 * The production path, as docs/deployment.md writes it, in a fresh folder: the repository's files
 * and its build, `npm ci --omit=dev` (no development tool installed), `npm start`. A sandbox
 * payment, then SIGTERM under a load of payments: every request the server took is answered, and
 * the process exits 0. (The build is this checkout's: building again in the copy would need the
 * development tools and minutes; `npm ci --omit=dev` takes about 20 s from npm's cache.)
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = [
  'apps/pay/dist',
  'apps/portal/dist',
  'packages/loader/dist',
  'packages/widgets/dist',
  'apps/server/dist',
];
const folder = mkdtempSync(join(tmpdir(), 'remit-install-'));
let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
let server: ServerProcess | null = null;

beforeAll(async () => {
  // Built again only if stale: other files run the build as their server processes meanwhile (testing/process.ts).
  if (!serverBuildIsFresh()) execFileSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: root });
  for (const dir of BUILT)
    if (!existsSync(join(root, dir))) throw new Error(`${dir} is missing: run npm run build first`);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(root, f))) continue;
    mkdirSync(dirname(join(folder, f)), { recursive: true });
    cpSync(join(root, f), join(folder, f));
  }
  for (const dir of BUILT) cpSync(join(root, dir), join(folder, dir), { recursive: true });
  await promisify(execFile)('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: folder,
    timeout: 150_000,
  });
  if (testDbKind === 'postgres') db = await createTestDatabase();
}, 180_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await db?.drop();
  rmSync(folder, { recursive: true, force: true });
});

interface Outcome {
  status?: number;
  error?: string;
  /** Sent on a kept-alive connection (Node's `reusedSocket`): a reset there means the server closed it idle, before reading. */
  reused: boolean;
}

/** One POST on `agent`, never rejecting: its status, or the error and whether the socket was reused. */
function post(
  base: string,
  agent: Agent,
  path: string,
  headers: Record<string, string>,
  json: unknown,
): Promise<Outcome> {
  const body = JSON.stringify(json);
  return new Promise((resolve) => {
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
        res.on('error', (e: NodeJS.ErrnoException) =>
          resolve({ error: e.code ?? e.message, reused: req.reusedSocket }),
        );
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message, reused: req.reusedSocket }));
    req.end(body);
  });
}

it('installed with --omit=dev and started with npm start: a sandbox payment; SIGTERM under load answers every request taken, exit 0', async () => {
  for (const tool of ['tsx', 'vite', 'esbuild', 'vitest', 'typescript'])
    expect(existsSync(join(folder, 'node_modules', tool)), tool).toBe(false);

  server = await startProcess(
    'npm start',
    {
      DATABASE_URL: db?.url ?? '',
      REMIT_DATA_DIR: join(folder, '.remit'),
      REMIT_ENCRYPTION_KEY: '',
      LOG_LEVEL: 'info',
      REMIT_WORKERS: '',
    },
    { command: ['npm', 'start'], cwd: folder, readyPath: '/readyz' },
  );
  const base = server.base;
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${base}/portal/api/credentials`,
  });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  const onboarded = await send<any>({
    method: 'POST',
    url: `${base}/api/v1/onboarding`,
    headers: { authorization },
    json: validOnboarding(),
  });
  const merchant_key = onboarded.body.data.merchant_key;
  const list = await send<any>({ method: 'GET', url: `${base}/api/v1/merchant`, headers: { authorization } });
  expect(
    (
      await send({
        method: 'POST',
        url: `${base}/api/v1/approve-merchant`,
        headers: { authorization },
        json: { merchant_id: list.body.data[0].merchant_id },
      })
    ).status,
  ).toBe(200);
  const customer = await send<any>({
    method: 'POST',
    url: `${base}/api/v1/customers/add`,
    headers: { authorization },
    json: { merchant_key, first_name: 'Ada', card: TEST_CARD },
  });
  const chargePath = `/api/v1/customers/charge/${customer.body.data.customer_id}`;
  const paid = await send<any>({
    method: 'POST',
    url: `${base}${chargePath}`,
    headers: { authorization },
    json: { merchant_key, amount: '12.34', order_id: 'first' },
  });
  expect([paid.status, paid.body.message, paid.body.data.status]).toEqual([200, 'Payment approved.', 'completed']);

  // Eight clients, each on one kept-alive connection, pay as fast as answers come, until refused.
  const outcomes: Outcome[] = [];
  let n = 0;
  const clients = Array.from({ length: 8 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (;;) {
      const o = await post(
        base,
        agent,
        chargePath,
        { authorization },
        { merchant_key, amount: '1.00', order_id: `load-${n++}` },
      );
      outcomes.push(o);
      if (o.error) break;
    }
    agent.destroy();
  });
  const until = Date.now() + 10_000;
  while (outcomes.filter((o) => o.status === 200).length < 40 && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));
  const exited = new Promise<number | null>((r) => server!.proc.once('exit', (code) => r(code)));
  server.proc.kill('SIGTERM');
  await Promise.all(clients);

  expect(await exited).toBe(0);
  const answered = outcomes.filter((o) => o.status !== undefined);
  expect(answered.filter((o) => o.status === 200).length).toBeGreaterThanOrEqual(40);
  // Answers are payments, or 503 for one that came on a kept-alive connection while closing.
  expect(answered.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
  // Not taken: refused at connect, or written on a kept-alive connection the server had closed idle.
  const failed = outcomes.filter((o) => o.error);
  expect(
    failed.filter(
      (o) =>
        !(o.error === 'ECONNREFUSED' || (o.reused && ['ECONNRESET', 'EPIPE', 'socket hang up'].includes(o.error!))),
    ),
  ).toEqual([]);

  // Server side: every request it began to read, it answered.
  const lines = server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; reqId?: string });
  const began = new Set(lines.filter((l) => l.msg === 'incoming request').map((l) => l.reqId));
  const ended = new Set(lines.filter((l) => l.msg === 'request completed').map((l) => l.reqId));
  expect(began.size).toBeGreaterThan(40);
  expect([...began].filter((id) => !ended.has(id))).toEqual([]);
  expect(lines.some((l) => l.msg.startsWith('shutdown: done in'))).toBe(true);
}, 120_000);
