/**
 * What the database rate limiter costs per request: `consume` of one per-client rule (the API
 * limit) with 50 callers at once for BENCH_SECONDS, on PGlite and Postgres, against the same
 * callers running a one-row primary-key select (the cheapest statement a request could add).
 * `tsx bench/rate-limit.ts [pglite|postgres]`.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openCore } from '@remit/core';
import { createTestDatabase } from '@remit/core/testing';
import { percentile } from './stats.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CALLERS = 50;

async function drive(run: () => Promise<unknown>) {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await run();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return `${(latencies.length / SECONDS).toFixed(0).padStart(6)}/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`;
}

for (const kind of (['pglite', 'postgres'] as const).filter((k) => !process.argv[2] || process.argv[2] === k)) {
  const db = kind === 'postgres' ? await createTestDatabase('remit_rl') : null;
  const core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: db?.url,
  });
  try {
    const rule = { name: 'api_client', limit: 100_000_000, windowMs: 60_000 };
    console.log(
      `${kind.padEnd(8)} consume, one client:    ${await drive(() => core.ctx.rateLimiter.consume(rule, 'cli_bench'))}`,
    );
    let i = 0;
    console.log(
      `${kind.padEnd(8)} consume, 50 clients:    ${await drive(() => core.ctx.rateLimiter.consume(rule, `cli_${i++ % 50}`))}`,
    );
    console.log(
      `${kind.padEnd(8)} one-row select:         ${await drive(() => core.ctx.db.execute(sql`select 1 from clients where id = 'x'`))}`,
    );
  } finally {
    await core.close();
    await db?.drop();
  }
}
