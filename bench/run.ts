/**
 * `npm run bench`: each hot route's throughput and latency on PGlite and Postgres (autocannon, 50
 * connections, after a warm-up), beside its ceiling measured in the same run: the statements one
 * request of the route sent, replayed through the driver with no HTTP. Prints the ratio against the
 * 80% budget, Postgres p99 by a second load tool, each route's change against bench/baseline.json;
 * then webhook latency, the growth run (bench/growth.ts) and the front-end budgets.
 *
 *   npm run bench [-- pglite|postgres|growth|bundles|sandbox|pooler] [-- --save-baseline]
 *   BENCH_SECONDS (5), BENCH_WARMUP_SECONDS (2), BENCH_ROUTES_ONLY=1, BENCH_SERVER_ENV='A=1 B=2',
 *   BENCH_SECOND_TOOL=node (the Node client even when wrk is installed)
 */
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDatabase } from '@remit/core';
import { startProcess } from '../apps/server/src/testing/process.js';
import { compareToBaseline, readBaseline, saveBaseline, type Baseline, type Kept } from './baseline.js';
import { reportBundles } from './bundles.js';
import { reportContractBundles } from './contract-bundles.js';
import { reportGrowthRuns } from './growth.js';
import { fixedRequests, load, routeLoads, warmThenLoad, withCost } from './loads.js';
import { runPayPageBench } from './pay-page.js';
import { describeRecording, pgDriver, pgliteDriver, replay, statementCount } from './replay.js';
import { secondTool, secondToolName } from './second-tool.js';
import {
  benchDatabase,
  CONNECTIONS,
  ROUTES,
  SECONDS,
  setup,
  startBenchServer,
  WARMUP_SECONDS,
  type Route,
} from './setup.js';
import type { Figures } from './stats.js';
import { runWebhookBench, type WebhookFigures } from './webhooks.js';
import { runWidgetPayBench } from './widget-pay.js';
import { runSandboxBench } from './sandbox.js';
import { runPoolerBench } from './pooler.js';

/** Each hot route at ≥ 80% of its ceiling; pay-link and the list p99 ≤ 50 ms on Postgres at 50 connections. */
const RATIO_BUDGET = 0.8;
const P99_BUDGET_MS = 50;
const P99_ROUTES = ['payLink', 'list'] as const;

const NAMES: Record<Route | 'webhooks', string> = {
  payLink: 'POST /pay-link',
  charge: 'POST /customers/charge/{id}',
  refund: 'POST /order/sales-return',
  void: 'POST /order/sales-void',
  preauthUpdate: 'POST /preauth/update',
  capture: 'POST /preauth/capture',
  preauthVoid: 'POST /preauth/void',
  get: 'GET /merchant/transactions/{id}',
  list: 'GET /merchant/transactions',
  webhooks: 'webhook claim loop',
};

const load1 = () => loadavg()[0]!.toFixed(2);

/**
 * A bare Fastify route answering a body smaller than any route's answer (the spec's envelope with
 * no data), no database: by autocannon and by the second tool.
 */
async function bareFigures(): Promise<Measured['bare']> {
  const bodyFile = join(tmpdir(), `remit-bare-${process.pid}.json`);
  writeFileSync(bodyFile, JSON.stringify({ status: 'success', message: 'OK' }));
  const bare = await startProcess('bench/bare-server.ts', { BARE_BODY_FILE: bodyFile }, { readyPath: '/bare' });
  try {
    const autocannon = await warmThenLoad((sec) => load({ url: `${bare.base}/bare` }, sec), bare.proc.pid);
    const get = { method: 'GET' as const, url: `${bare.base}/bare`, headers: {}, body: '' };
    await secondTool(get, CONNECTIONS, Math.min(1, WARMUP_SECONDS));
    return { autocannon, second: await withCost(() => secondTool(get, CONNECTIONS, SECONDS), bare.proc.pid) };
  } finally {
    await bare.stop();
    rmSync(bodyFile, { force: true });
  }
}

interface Measured {
  http: Record<Route, Figures>;
  ceilings: Record<Route, Figures>;
  bare: { autocannon: Figures; second: Figures };
  second: Partial<Record<Route, Figures>>;
  webhooks: WebhookFigures;
  shapes: Record<Route, string>;
  loadStart: string;
  loadEnd: string;
}

async function measureDatabase(kind: 'pglite' | 'postgres'): Promise<Measured> {
  const loadStart = load1();
  const db = await benchDatabase(kind);
  const { dataDir, databaseUrl } = db.target;
  try {
    const s = await setup(db.target);
    const server = await startBenchServer(db);
    const http = {} as Record<Route, Figures>;
    const second: Measured['second'] = {};
    try {
      const loads = routeLoads(server.base, s);
      for (const r of ROUTES) http[r] = await warmThenLoad(loads[r], server.proc.pid);
      // The same server, already warm, driven by another tool: its p99 beside autocannon's. The tool's
      // own new connections get a warm-up first, as the bare route's do (bareFigures).
      if (kind === 'postgres') {
        const fixed = fixedRequests(server.base, s);
        for (const r of P99_ROUTES) {
          if (WARMUP_SECONDS > 0) await secondTool(fixed[r]!, CONNECTIONS, Math.min(1, WARMUP_SECONDS));
          second[r] = await secondTool(fixed[r]!, CONNECTIONS, SECONDS);
        }
      }
    } finally {
      await server.stop();
    }
    const bare = await bareFigures();
    // On PGlite the server's own client (PGlite on its thread, driven by the wire protocol), as on Postgres `pg` is.
    const database = dataDir ? await connectDatabase({ dataDir }) : null;
    const driver = database ? pgliteDriver(database, () => database.close()) : pgDriver(databaseUrl!);
    const ceilings = {} as Record<Route, Figures>;
    try {
      // The ceiling takes the second half of the void merchant's rows (the HTTP load took the first).
      const consume = (recordedOn: string, list: string[]) => {
        const rest = list.slice(list.length / 2).reverse();
        return { id: recordedOn, next: () => rest.pop() };
      };
      const consumed: Partial<Record<Route, ReturnType<typeof consume>>> = {
        void: consume('txn_void0', s.voidable),
        capture: consume('txn_pacap0', s.capturable),
        preauthVoid: consume('txn_pavoid0', s.preauthVoidable),
      };
      for (const r of ROUTES) {
        const opts = { keep: s.keep, consume: consumed[r], cycle: r === 'preauthUpdate' ? 2 : 1 };
        if (WARMUP_SECONDS > 0) await replay(driver, s.recorded[r], CONNECTIONS, Math.min(1, WARMUP_SECONDS), opts);
        ceilings[r] = await withCost(() => replay(driver, s.recorded[r], CONNECTIONS, SECONDS, opts));
      }
    } finally {
      await driver.close();
    }
    const shapes = Object.fromEntries(
      ROUTES.map((r) => [r, `${statementCount(s.recorded[r][0]!)} (${describeRecording(s.recorded[r][0]!)})`]),
    ) as Record<Route, string>;
    const [webhooks] = await runWebhookBench([kind]);
    return { http, ceilings, bare, second, webhooks: webhooks!, shapes, loadStart, loadEnd: load1() };
  } finally {
    await db.drop();
  }
}

const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

/**
 * The best ratio any HTTP server could reach here, from CPU alone: a request costs the machine at
 * least what its ceiling's statements cost it (driver and database) plus what a bare Fastify route
 * costs it (the load tool and Node's HTTP), and the machine has `cpus()` cores to spend.
 */
function bound(ceiling: Figures, bare: Figures): number {
  if (!ceiling.costUs || !bare.costUs) return NaN;
  return (cpus().length * 1e6) / (ceiling.costUs + bare.costUs) / ceiling.rps;
}
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '-');
const cpuPair = (h: Figures, c: Figures) => `${h.cpuUs?.toFixed(0) ?? '-'} | ${c.cpuUs?.toFixed(0) ?? '-'}`;

function report(kind: string, m: Measured, baseline: Baseline | null): Record<string, Kept> {
  const out: string[] = [];
  out.push(
    `\n== ${kind}: ${CONNECTIONS} connections, ${SECONDS} s each after a ${WARMUP_SECONDS} s warm-up; load average ${m.loadStart} at start, ${m.loadEnd} at end ==`,
  );
  out.push(
    `${'route'.padEnd(32)} ${'req/s'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  ${'ceiling'.padStart(7)}  ratio  ${'CPU µs/req'.padStart(11)}  ${'bound'.padStart(9)}  budget ≥ ${RATIO_BUDGET * 100}%`,
  );
  const kept: Record<string, Kept> = {};
  for (const r of ROUTES) {
    const h = m.http[r];
    const c = m.ceilings[r];
    const ratio = h.rps / c.rps;
    const errors = h.errors || c.errors ? `  (errors: ${h.errors} HTTP, ${c.errors} ceiling)` : '';
    const bounds = `${pct(bound(c, m.bare.autocannon))} | ${pct(bound(c, m.bare.second))}`;
    out.push(
      `${NAMES[r].padEnd(32)} ${h.rps.toFixed(0).padStart(6)} ${h.p50.toFixed(1).padStart(7)} ${h.p99.toFixed(1).padStart(7)}  ${c.rps.toFixed(0).padStart(7)}  ${`${(ratio * 100).toFixed(0)}%`.padStart(5)}  ${cpuPair(h, c).padStart(11)}  ${bounds.padStart(9)}  ${verdict(ratio >= RATIO_BUDGET)}${errors}`,
    );
    kept[r] = { rps: h.rps, p99: h.p99, ceiling: c.rps };
  }
  const w = m.webhooks;
  const wr = w.deliveriesPerSecond / w.ceiling;
  out.push(
    `${NAMES.webhooks.padEnd(32)} ${w.deliveriesPerSecond.toFixed(0).padStart(6)} ${'-'.padStart(7)} ${'-'.padStart(7)}  ${w.ceiling.toFixed(0).padStart(7)}  ${`${(wr * 100).toFixed(0)}%`.padStart(5)}  ${'-'.padStart(11)}  ${verdict(wr >= RATIO_BUDGET)}  (deliveries/s to a local receiver)`,
  );
  kept.webhooks = { rps: w.deliveriesPerSecond, p99: null, ceiling: w.ceiling };
  out.push(
    '  CPU µs/req: the server process per request under HTTP | the replaying process per request for the ceiling (the driver alone; on PGlite the database too)',
  );
  const b = m.bare;
  const cost = (f: Figures) => `${f.costUs?.toFixed(0) ?? '-'} µs`;
  out.push(
    `  bound: the best ratio any HTTP server could reach on this machine's ${cpus().length} cores: each request costing its ceiling's CPU plus a bare Fastify route's (CPU of the processes taking part)`,
  );
  out.push(
    `    (a route with no database answering a 35-byte body: autocannon ${b.autocannon.rps.toFixed(0)} req/s, ${cost(b.autocannon)} of CPU a request | ${secondToolName()} ${b.second.rps.toFixed(0)} req/s, ${cost(b.second)});` +
      ` ceilings cost ${ROUTES.map((r) => `${r} ${cost(m.ceilings[r])}`).join(', ')}; HTTP: ${ROUTES.map((r) => `${r} ${cost(m.http[r])}`).join(', ')}`,
  );
  out.push(
    '  ceiling: the statements one request sent (BEGIN/COMMIT counted), replayed through the driver, same connections;',
  );
  out.push("    the workers' rate-limit counts joined while one is in flight, as the server joins a client's:");
  out.push(`    ${ROUTES.map((r) => `${r} ${m.shapes[r]}`).join('; ')}`);
  out.push(
    '    webhook claim loop: prepare, claim a batch of 32, record its results (as the dispatcher does); no HTTP',
  );
  if (kind === 'postgres') {
    const tool = secondToolName();
    out.push(
      `  p99 at ${CONNECTIONS} connections after the warm-up (budget ≤ ${P99_BUDGET_MS} ms), autocannon | ${tool}:`,
    );
    for (const r of P99_ROUTES) {
      const a = m.http[r];
      const b = m.second[r]!;
      const met = a.p99 <= P99_BUDGET_MS && b.p99 <= P99_BUDGET_MS;
      out.push(
        `    ${NAMES[r].padEnd(28)} ${a.p99.toFixed(1).padStart(6)} ms | ${b.p99.toFixed(1).padStart(6)} ms   (${a.rps.toFixed(0)} | ${b.rps.toFixed(0)} req/s${b.errors ? `, ${b.errors} errors` : ''})  ${verdict(met)}`,
      );
    }
  }
  out.push(...compareToBaseline(baseline, kind, kept));
  console.log(out.join('\n'));
  return kept;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const save = args.includes('--save-baseline');
  const only = args.find((a) => !a.startsWith('--'));
  const databases = (['pglite', 'postgres'] as const).filter((d) => !only || only === d);
  const baseline = readBaseline();
  const all: Baseline['routes'] = {};
  const t0 = Date.now();
  for (const kind of databases) all[kind] = report(kind, await measureDatabase(kind), baseline);
  if (save && databases.length) saveBaseline({ ...(baseline?.routes ?? {}), ...all }, SECONDS);
  if (databases.length)
    console.log(`\n(routes measured in ${((Date.now() - t0) / 1000).toFixed(0)} s; load average now ${load1()})`);
  // BENCH_ROUTES_ONLY=1 stops after the routes (for side-by-side comparisons of the API alone).
  if (process.env.BENCH_ROUTES_ONLY) process.exit(0);
  // `npm run bench -- pooler`: PgBouncer in transaction mode against a direct connection, and nothing else.
  if (only === 'pooler') {
    await runPoolerBench();
    process.exit(0);
  }
  // `npm run bench -- sandbox` prints only the test kit's figures.
  if (only === 'sandbox') {
    await runSandboxBench();
    process.exit(0);
  }
  // `npm run bench -- growth` runs only the growth run; `-- bundles` prints only the bundle sizes.
  if (only !== 'bundles') {
    for (const kind of only === 'growth' ? (['pglite', 'postgres'] as const) : databases) await reportGrowthRuns(kind);
    if (only === 'growth') process.exit(0);
  }
  reportBundles();
  await reportContractBundles();
  await runPayPageBench();
  await runWidgetPayBench();
  await runSandboxBench();
}
