import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from './http.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** The sources the server's build (apps/server/dist) is made from. */
const BUILT_FROM = ['apps/server/src', 'packages/core/src', 'packages/contract/src'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // Test support (testing/ folders, *.test.ts) is not part of the build.
    if (entry.isDirectory()) newest = entry.name === 'testing' ? newest : Math.max(newest, newestSource(path));
    else if (/\.(ts|mjs|sql|json)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

let builtIsFresh: boolean | undefined;

/** Whether apps/server/dist is newer than every source it is built from (read once per process). */
export function serverBuildIsFresh(): boolean {
  const dist = join(root, 'apps/server/dist/main.js');
  builtIsFresh ??=
    existsSync(dist) && statSync(dist).mtimeMs > Math.max(...BUILT_FROM.map((d) => newestSource(join(root, d))));
  return builtIsFresh;
}

/**
 * How to run a server script: from the build when it is newer than every source it is made from
 * (`npm test` builds first), else from source with tsx. A start from the build takes a third of the
 * time (no compiling on the fly), and the suite starts servers as processes a hundred times.
 */
export function scriptCommand(script: string): string[] {
  const built = script.match(/^apps\/server\/src\/(main|cli)\.ts$/);
  if (built && serverBuildIsFresh()) return [join(root, `apps/server/dist/${built[1]}.js`)];
  return ['--import', 'tsx', script];
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface ServerProcess {
  base: string;
  proc: ChildProcess;
  /** What the process wrote so far, stdout (the JSON log lines) then stderr. */
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL, and wait for the exit. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * Runs a script of the repository as its own process (node with tsx's loader, not the tsx wrapper,
 * so signals reach it) and waits until `readyPath` answers 200.
 */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  opts: {
    port?: number;
    readyPath?: string;
    /** Extra node flags (a profile's --cpu-prof). */
    nodeArgs?: string[];
    /** Run this command instead (`['npm', 'start']`): `script` then only names it in errors. */
    command?: string[];
    /** Where to run it; default the repository. */
    cwd?: string;
    /** How long it may take to answer `readyPath`; default 90 s. */
    readyMs?: number;
  } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const [file, ...args] = opts.command ?? [process.execPath, ...(opts.nodeArgs ?? []), ...scriptCommand(script)];
  const proc = spawn(file!, args, {
    cwd: opts.cwd ?? root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const output = () => stdout + stderr;
  const base = `http://127.0.0.1:${port}`;
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill(signal);
    const force = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  };
  const until = Date.now() + (opts.readyMs ?? 90_000);
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${script} exited: ${stderr}`);
    try {
      const r = await send({ method: 'GET', url: `${base}${opts.readyPath ?? '/healthz'}`, timeoutMs: 1000 });
      if (r.status === 200) return { base, proc, output, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stop('SIGKILL');
      throw new Error(`${script} did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Runs a script of the repository that is expected to stop by itself (a refused start); its exit code and output. */
export async function runToExit(
  script: string,
  env: Record<string, string>,
  opts: { timeoutMs?: number /** Arguments after the script (a CLI command). */; args?: string[] } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, [...scriptCommand(script), ...(opts.args ?? [])], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const force = setTimeout(() => proc.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
  const code = await new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
  clearTimeout(force);
  return { code, stdout, stderr };
}
