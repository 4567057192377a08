/**
 * `npm run bench -- pooler`: what PgBouncer in transaction mode costs against a direct connection.
 * One PostgreSQL 15 cluster of its own (apps/server/src/testing/pg-cluster.ts) and a PgBouncer 1.18
 * in transaction mode in front of it; the same server, first on the database directly (named
 * prepared statements), then through the pooler (DATABASE_DIRECT_URL set: statements unnamed), under
 * the same loads as the route bench (autocannon, 50 connections, after a warm-up), alternated (BENCH_ROUNDS, 2).
 */
import { loadavg } from 'node:os';
import { startPgBouncer, startPrimary } from '../apps/server/src/testing/pg-cluster.js';
import { routeLoads, warmThenLoad } from './loads.js';
import { CONNECTIONS, SECONDS, setup, startBenchServer, type Route } from './setup.js';
import type { Figures } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const unused = async (): Promise<never> => {
  throw new Error('the pooler bench makes no copy');
};

const MEASURED: Array<[Route, string]> = [
  ['payLink', 'POST /pay-link'],
  ['charge', 'POST /customers/charge/{id}'],
  ['get', 'GET /merchant/transactions/{id}'],
  ['list', 'GET /merchant/transactions'],
];

export async function runPoolerBench(): Promise<void> {
  const primary = await startPrimary(['max_connections = 120']);
  // As an operator sizes it: fewer server connections than clients, the pooler shares them.
  const bouncer = await startPgBouncer(primary, 20);
  try {
    await primary.query('create database remit_bench');
    const direct = primary.url('remit_bench');
    const s = await setup({ databaseUrl: direct });
    const target = { kind: 'postgres' as const, target: { databaseUrl: direct }, copy: unused, drop: async () => {} };
    const servers = {
      direct: await startBenchServer(target),
      pooler: await startBenchServer(target, { DATABASE_URL: bouncer.url('remit_bench'), DATABASE_DIRECT_URL: direct }),
    };
    // Both servers up at once, their loads alternated route by route and round by round: a shared machine's
    // load moves both sides alike. Each side's best round is kept.
    const figures: Record<'direct' | 'pooler', Partial<Record<Route, Figures>>> = { direct: {}, pooler: {} };
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [route] of MEASURED) {
          for (const how of ['direct', 'pooler'] as const) {
            const f = await warmThenLoad(routeLoads(servers[how].base, s)[route], servers[how].proc.pid);
            const best = figures[how][route];
            if (!best || f.rps > best.rps) figures[how][route] = f;
          }
        }
      }
    } finally {
      await servers.direct.stop();
      await servers.pooler.stop();
    }
    console.log(
      `\nPgBouncer transaction mode vs direct (one PostgreSQL 15, ${CONNECTIONS} connections, best of ${ROUNDS} rounds of ${SECONDS} s; load ${loadavg()[0]!.toFixed(2)})`,
    );
    console.log('| route | direct req/s | p99 ms | PgBouncer req/s | p99 ms | change |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [route, name] of MEASURED) {
      const d = figures.direct[route]!;
      const p = figures.pooler[route]!;
      const change = ((p.rps / d.rps - 1) * 100).toFixed(0);
      console.log(`| ${name} | ${d.rps.toFixed(0)} | ${d.p99} | ${p.rps.toFixed(0)} | ${p.p99} | ${change}% |`);
    }
  } finally {
    await bouncer.stop();
    await primary.destroy();
  }
}
