/**
 * `npm run bench -- pooler`: what PgBouncer in transaction mode costs against a direct connection.
 * One PostgreSQL 15 cluster of its own (apps/server/src/testing/pg-cluster.ts) and a PgBouncer 1.18
 * in transaction mode in front of it; the same server, first on the database directly (named
 * prepared statements), then through the pooler (DATABASE_DIRECT_URL set: statements unnamed), under
 * the same loads as the route bench (autocannon, 50 connections, after a warm-up).
 */
import { loadavg } from 'node:os';
import { startPgBouncer, startPrimary } from '../apps/server/src/testing/pg-cluster.js';
import { routeLoads, warmThenLoad } from './loads.js';
import { CONNECTIONS, SECONDS, setup, startBenchServer, type Route } from './setup.js';
import type { Figures } from './stats.js';

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
    const figures: Record<'direct' | 'pooler', Partial<Record<Route, Figures>>> = { direct: {}, pooler: {} };
    for (const how of ['direct', 'pooler'] as const) {
      const server = await startBenchServer(
        {
          kind: 'postgres',
          target: { databaseUrl: direct },
          copy: async () => {
            throw new Error('unused');
          },
          drop: async () => {},
        },
        how === 'direct' ? {} : { DATABASE_URL: bouncer.url('remit_bench'), DATABASE_DIRECT_URL: direct },
      );
      try {
        const loads = routeLoads(server.base, s);
        for (const [route] of MEASURED) figures[how][route] = await warmThenLoad(loads[route], server.proc.pid);
      } finally {
        await server.stop();
      }
    }
    console.log(
      `\nPgBouncer transaction mode vs direct (one PostgreSQL 15, ${CONNECTIONS} connections, ${SECONDS} s each; load ${loadavg()[0]!.toFixed(2)})`,
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
