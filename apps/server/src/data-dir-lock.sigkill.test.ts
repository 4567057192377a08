import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from './testing/http.js';
import { freePort, startProcess, type ServerProcess } from './testing/process.js';

/**
 * The embedded database's owner lock (packages/core/src/db/data-dir.ts) is one a dead process cannot
 * hold: the compiled server killed with SIGKILL and not reaped (its parent never waits, as under a
 * container init that does not reap) is replaced 100 ms later; a `remit.pid` naming an unrelated live
 * process from long ago does not keep a server down; a live server still keeps a second one out.
 * Always on PGlite (on the Postgres run too: the lock is the embedded database's).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = 'apps/server/dist/main.js';
const key = randomBytes(32).toString('hex');
/** A new data folder is set up at the first start: minutes on a loaded machine. */
const START_MS = 240_000;
let base: string;
const procs: ServerProcess[] = [];
const pids: number[] = [];
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'remit-lock-'));
});
afterAll(async () => {
  for (const p of procs) await p.stop('SIGKILL');
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(base, { recursive: true, force: true });
});

const env = (dataDir: string) => ({
  REMIT_ENV: 'sandbox',
  REMIT_ENCRYPTION_KEY: key,
  DATABASE_URL: '',
  REMIT_DATA_DIR: dataDir,
  REMIT_WORKERS: 'off',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
});

async function server(dataDir: string) {
  const p = await startProcess(MAIN, env(dataDir), { command: [process.execPath, MAIN], readyMs: START_MS });
  procs.push(p);
  return p;
}

async function ready(url: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await send({ method: 'GET', url, timeoutMs: 1000 })).status === 200) return true;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** `/proc/{pid}/stat`'s state letter (Z: a zombie, dead and not reaped), or null once gone. */
function stateOf(pid: number): string | null {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))![1]!;
  } catch {
    return null;
  }
}

/** The compiled server under a parent that never reaps it (`sh` exec'd into `sleep`); its pid and port. */
async function unreapedServer(dataDir: string): Promise<{ pid: number; parent: number; url: string }> {
  const port = await freePort();
  const sh = spawn('sh', ['-c', `${process.execPath} ${MAIN} >/dev/null 2>&1 & echo $!; exec sleep 600`], {
    cwd: root,
    env: { ...process.env, ...env(dataDir), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  pids.push(sh.pid!);
  const pid = await new Promise<number>((r) => sh.stdout!.once('data', (d: Buffer) => r(Number(String(d).trim()))));
  pids.push(pid);
  const url = `http://127.0.0.1:${port}/healthz`;
  expect(await ready(url, START_MS)).toBe(true);
  return { pid, parent: sh.pid!, url };
}

describe('the embedded database after a crash', () => {
  it('SIGKILL, not reaped, restarted 100 ms later: the new server opens the database and serves', async () => {
    const dataDir = join(base, 'crash');
    const first = await unreapedServer(dataDir);
    const creds = await send({ method: 'POST', url: first.url.replace('/healthz', '/portal/api/credentials') });
    expect(creds.status).toBe(201);
    process.kill(first.pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    // Dead or dying, its id still taken: what a pid lock mistook for a live owner.
    expect(stateOf(first.pid)).not.toBeNull();
    const second = await server(dataDir);
    expect((await send({ method: 'GET', url: `${second.base}/healthz` })).status).toBe(200);
    expect(second.output()).not.toContain('in use by another Remit process');
    // The new server serves while the old id is still not reaped.
    expect(stateOf(first.pid)).toBe('Z');
    // The database is the same one, whole: the credentials the killed server made still sign in.
    const { client_id, secret_key } = creds.body as { client_id: string; secret_key: string };
    const auth = `Basic ${Buffer.from(`${client_id}:${secret_key}`).toString('base64')}`;
    const merchants = await send({
      method: 'GET',
      url: `${second.base}/api/v1/merchant`,
      headers: { authorization: auth },
    });
    expect(merchants.status).toBe(200);
    await second.stop('SIGTERM');
  }, 600_000);

  for (const [who, pid] of [
    ['this test process', process.pid],
    ['pid 1', 1],
  ] as const) {
    it(`a remit.pid naming ${who} (alive, unrelated) from long ago does not keep the server down`, async () => {
      const dataDir = join(base, `stale-${pid}`);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const file = join(dataDir, 'remit.pid');
      writeFileSync(file, String(pid));
      const old = new Date('2024-01-01T00:00:00Z');
      utimesSync(file, old, old);
      const s = await server(dataDir);
      expect((await send({ method: 'GET', url: `${s.base}/healthz` })).status).toBe(200);
      // The file now names the server that holds the folder; a clean stop removes it.
      expect(readFileSync(file, 'utf8').trim()).toBe(String(s.proc.pid));
      await s.stop('SIGTERM');
      expect(existsSync(file)).toBe(false);
    }, 400_000);
  }

  it('a second live server on the same folder is refused, naming the first; the first serves on', async () => {
    const dataDir = join(base, 'two');
    const first = await server(dataDir);
    const port = await freePort();
    const second = spawn(process.execPath, [MAIN], {
      cwd: root,
      env: { ...process.env, ...env(dataDir), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    second.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => second.once('exit', (c) => r(c)));
    expect(code).toBe(1);
    expect(stderr).toContain(
      `the embedded database in ${dataDir} is in use by another Remit process (pid ${first.proc.pid})`,
    );
    expect((await send({ method: 'GET', url: `${first.base}/healthz` })).status).toBe(200);
    expect(readFileSync(join(dataDir, 'remit.pid'), 'utf8').trim()).toBe(String(first.proc.pid));
    await first.stop('SIGTERM');
  }, 400_000);
});
