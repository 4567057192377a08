/**
 * CPU profile of the server under one route's load: `tsx bench/profile.ts pglite|postgres payLink`.
 * A warm-up load first (not profiled), then the measured load: the server's CPU time per request
 * (user and system, from /proc), and from node's --cpu-prof, counting only the samples of the
 * measured load, the functions with the most self time, by package, and the most inclusive time
 * (the function and what it called). `BENCH_PROFILE_ROOT=<checkout>` profiles another checkout's server;
 * `BENCH_PROFILE_THREAD=<n>` another of its threads by Node's thread id (the main one is 0; PGlite runs on a worker);
 * `BENCH_PROFILE_CPU=0` prints the CPU figures only, measured without the profiler's own cost.
 * `BENCH_PROFILE_NO_WRITES=1` leaves socket writes and idle out of the tables (what is left is closer to CPU).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase } from '@remit/core/testing';
import { startProcess } from '../apps/server/src/testing/process.js';
import { routeLoads } from './loads.js';
import { machineCpuMs, postgresCpuMs, processCpuMs } from './process-cpu.js';
import { serverEnv } from './server-env.js';
import { benchDatabaseUrl, encryptionKey, setup, WARMUP_SECONDS, type Route } from './setup.js';
import { fmt } from './stats.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const route = (process.argv[3] ?? 'payLink') as Route;
const root = process.env.BENCH_PROFILE_ROOT;
const profiling = process.env.BENCH_PROFILE_CPU !== '0';
const thread = process.env.BENCH_PROFILE_THREAD ?? '0';
const profDir = mkdtempSync(join(tmpdir(), 'remit-prof-'));
const db = kind === 'postgres' ? await createTestDatabase('remit_prof') : null;
const dataDir = db ? undefined : mkdtempSync(join(tmpdir(), 'remit-prof-db-'));

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

try {
  const s = await setup({ dataDir, databaseUrl: db?.url });
  const server = await startProcess(
    root ? resolve(root, 'apps/server/src/main.ts') : 'apps/server/src/main.ts',
    {
      ...serverEnv(),
      REMIT_ENCRYPTION_KEY: encryptionKey,
      ...(dataDir ? { REMIT_DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: benchDatabaseUrl(db!.url) }),
    },
    profiling ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] } : {},
  );
  let window: [number, number];
  try {
    const run = routeLoads(server.base, s)[route];
    await run(Math.max(WARMUP_SECONDS, 2));
    const pid = server.proc.pid!;
    const before = processCpuMs(pid);
    const [tool0, pg0, machine0] = [process.cpuUsage(), postgresCpuMs(), machineCpuMs()];
    const t0 = nowUs();
    const f = await run();
    window = [t0, nowUs()];
    const after = processCpuMs(pid);
    const [tool, pgMs, machine] = [process.cpuUsage(tool0), postgresCpuMs() - pg0, machineCpuMs()];
    const requests = f.rps * ((window[1] - window[0]) / 1e6);
    const per = (ms: number) => ((ms / requests) * 1000).toFixed(0);
    console.log(`${route}: ${fmt(f)}`);
    console.log(
      `server CPU per request: user ${per(after.user - before.user)} µs, system ${per(after.system - before.system)} µs (${requests.toFixed(0)} requests)`,
    );
    // Where the machine's CPU went, per request: the load tool is this process (autocannon).
    const serverMs = after.user - before.user + after.system - before.system;
    const busy = machine.busy - machine0.busy;
    console.log(
      `machine CPU per request: server ${per(serverMs)} µs, load tool ${per((tool.user + tool.system) / 1000)} µs, postgres ${per(pgMs)} µs, ` +
        `rest ${per(busy - serverMs - (tool.user + tool.system) / 1000 - pgMs)} µs, idle ${per(machine.idle - machine0.idle)} µs`,
    );
  } finally {
    await server.stop();
  }
  if (profiling) {
    // Node names each thread's profile CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile.
    const file = readdirSync(profDir).find((f) => f.split('.')[4] === thread && f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile of thread ${thread} in ${readdirSync(profDir).join(', ')}`);
    const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as {
      nodes: Array<{
        id: number;
        children?: number[];
        callFrame: { functionName: string; url: string; lineNumber: number };
      }>;
      samples: number[];
      timeDeltas: number[];
      startTime: number;
    };
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const urlOf = (u: string) =>
      u.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(packages|apps|bench)\//, '$1/');
    const keyOf = (id: number) => {
      const c = byId.get(id)!.callFrame;
      return `${c.functionName || '(anon)'} ${urlOf(c.url)}:${c.lineNumber}`;
    };
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    const byFile = new Map<string, number>();
    const byOwner = new Map<string, number>();
    // Who a sample's time is for: the nearest frame (leaf upward) of a package or of our code (by file),
    // so Node's own frames (a socket write, a timer) count for the code that called them.
    const ownerOf = (id: number): string => {
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const url = urlOf(byId.get(n)!.callFrame.url);
        if (url.startsWith('wasm://')) return '@electric-sql/pglite';
        if (!url || url.startsWith('node:')) continue;
        if (/^(packages|apps|bench)\//.test(url)) return url;
        return url
          .split('/')
          .slice(0, url.startsWith('@') ? 2 : 1)
          .join('/');
      }
      return byId.get(id)!.callFrame.functionName;
    };
    const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
    let t = prof.startTime;
    let total = 0;
    // BENCH_PROFILE_NO_WRITES=1 leaves out samples in a socket write or idle: on this machine a write that
    // wakes a Postgres backend or the load tool is mostly time taken off the core, not the server's CPU.
    const noWrites = process.env.BENCH_PROFILE_NO_WRITES === '1';
    const inWrite = (id: number) =>
      ['writev', 'writeUtf8String', 'writeBuffer', '(idle)'].includes(byId.get(id)!.callFrame.functionName);
    for (const [i, id] of prof.samples.entries()) {
      t += prof.timeDeltas[i]!;
      if (t < window[0] || t > window[1]) continue;
      if (noWrites && inWrite(id)) continue;
      total++;
      const url = urlOf(byId.get(id)!.callFrame.url);
      add(self, keyOf(id));
      add(byOwner, ownerOf(id));
      add(
        byFile,
        url
          .split('/')
          .slice(0, url.startsWith('@') ? 2 : 1)
          .join('/') || byId.get(id)!.callFrame.functionName,
      );
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const k = keyOf(n);
        if (!seen.has(k)) seen.add(k), add(incl, k);
      }
    }
    const top = (m: Map<string, number>, k: number) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, k)
        .map(([name, c]) => `${((c / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
        .join('\n');
    console.log(`${total} samples in the measured load`);
    console.log(
      `-- by owner (nearest package or file of ours, leaf upward) --\n${top(byOwner, 30)}\n-- by package --\n${top(byFile, 15)}\n-- by function (self) --\n${top(self, 40)}\n-- by function (inclusive) --\n${top(incl, 70)}`,
    );
  }
} finally {
  rmSync(profDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await db?.drop();
}
