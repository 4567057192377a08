/**
 * Side-by-side comparison of two server builds or settings on the same data, for a noisy shared
 * machine: the data is made once and copied, both servers run at once (each on its own copy), and
 * their loads alternate route by route for several rounds, so both see the same machine.
 *
 *   tsx bench/compare.ts pglite|postgres
 *   BENCH_A_ENV='REMIT_WAKE_ON_COMMIT=off'  extra environment of server A (B likewise)
 *   BENCH_A_ROOT=/path/to/other/checkout    run A from another checkout (the code before a change)
 *   BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_ROUTES=payLink,list (default: all)
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createTestDatabase, testPostgresAdminUrl } from '@remit/core/testing';
import { startProcess, type ServerProcess } from '../apps/server/src/testing/process.js';
import { routeLoads, withServerCpu } from './loads.js';
import { serverEnv } from './server-env.js';
import { encryptionKey, ROUTES, setup, type Route, type Setup } from './setup.js';
import { fmt, type Figures } from './stats.js';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const routes = (process.env.BENCH_ROUTES?.split(',') as Route[] | undefined) ?? ROUTES;

async function admin(sqlText: string) {
  const c = new pg.Client({ connectionString: testPostgresAdminUrl });
  await c.connect();
  try {
    await c.query(sqlText);
  } finally {
    await c.end();
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
try {
  // Two copies of the same data: a PGlite directory copied, a Postgres database cloned from a template.
  let targets: Array<Record<string, string>>;
  let s: Setup;
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'remit-cmp-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    s = await setup({ dataDir: join(dir, 'a') });
    cpSync(join(dir, 'a'), join(dir, 'b'), { recursive: true });
    targets = ['a', 'b'].map((x) => ({ REMIT_DATA_DIR: join(dir, x), DATABASE_URL: '' }));
  } else {
    const a = await createTestDatabase('remit_cmp');
    cleanups.push(() => a.drop());
    s = await setup({ databaseUrl: a.url });
    const nameA = new URL(a.url).pathname.slice(1);
    const nameB = `${nameA}_b`;
    await admin(`CREATE DATABASE ${nameB} TEMPLATE ${nameA}`);
    cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${nameB} WITH (FORCE)`));
    const urlB = new URL(a.url);
    urlB.pathname = `/${nameB}`;
    targets = [{ DATABASE_URL: a.url }, { DATABASE_URL: urlB.toString() }];
  }
  const servers: Array<{ label: string; proc: ServerProcess; s: Setup }> = [];
  for (const [i, x] of (['A', 'B'] as const).entries()) {
    const root = process.env[`BENCH_${x}_ROOT`];
    const script = root ? resolve(root, 'apps/server/src/main.ts') : 'apps/server/src/main.ts';
    const proc = await startProcess(script, {
      ...serverEnv(process.env[`BENCH_${x}_ENV`]),
      REMIT_ENCRYPTION_KEY: encryptionKey,
      ...targets[i]!,
    });
    cleanups.push(() => proc.stop());
    const label = `${x}${root ? ` ${root}` : ''}${process.env[`BENCH_${x}_ENV`] ? ` ${process.env[`BENCH_${x}_ENV`]}` : ''}`;
    servers.push({ label, proc, s: structuredClone(s) });
  }
  console.log(`== ${kind}: ${ROUNDS} rounds, A and B alternating ==`);
  for (const sv of servers) console.log(`  ${sv.label}`);
  const figures = new Map<string, Figures[]>();
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of routes) {
      // Alternate which goes first, so neither always follows the other's load.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const sv of order) {
        // The server's own CPU (user + system) per request: moves less with the machine's load than req/s.
        const f = await withServerCpu(sv.proc.proc.pid!, () => routeLoads(sv.proc.base, sv.s)[r]());
        const cpuUs = f.cpuUs ?? NaN;
        const key = `${r} ${sv.label[0]}`;
        figures.set(key, [...(figures.get(key) ?? []), f]);
        cpu.set(key, [...(cpu.get(key) ?? []), cpuUs]);
        console.log(
          `round ${round + 1} ${r.padEnd(14)} ${sv.label[0]} ${fmt(f)}  server CPU ${cpuUs.toFixed(0).padStart(5)} µs/req`,
        );
      }
    }
  }
  console.log(`\n== ${kind} summary (median of ${ROUNDS}) ==`);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const r of routes) {
    const line = servers.map((sv) => {
      const fs = figures.get(`${r} ${sv.label[0]}`)!;
      return `${sv.label[0]} ${median(fs.map((f) => f.rps))
        .toFixed(0)
        .padStart(5)} req/s p99 ${median(fs.map((f) => f.p99))
        .toFixed(0)
        .padStart(5)} ms errors ${fs.reduce((a, f) => a + f.errors, 0)} CPU ${median(cpu.get(`${r} ${sv.label[0]}`)!)
        .toFixed(0)
        .padStart(5)} µs/req`;
    });
    console.log(`${r.padEnd(14)} ${line.join('   ')}`);
  }
} finally {
  for (const c of cleanups.reverse()) await c();
}
