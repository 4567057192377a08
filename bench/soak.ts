/**
 * `npm run soak`: the server on PGlite under a steady mixed load (pay links, charges, one
 * transaction read, the list) for SOAK_SECONDS (180), its resident memory sampled every
 * SOAK_SAMPLE_SECONDS (10). Prints the series, then fails if memory grew after the first minute
 * (a third of a shorter run) by more than SOAK_GROWTH_MB (64 MB: the noise of the heaps' collections).
 *
 *   npm run soak [-- postgres]   SOAK_SECONDS, SOAK_SAMPLE_SECONDS, SOAK_GROWTH_MB, SOAK_CONNECTIONS (20)
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

// The soak reads and writes; it consumes no seeded rows (set before setup.js reads it).
process.env.BENCH_VOID_ROWS ??= '10';
const { benchDatabase, setup, startBenchServer } = await import('./setup.js');

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
const GROWTH_MB = Number(process.env.SOAK_GROWTH_MB ?? 64);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 20);
/** Growth is measured from the first sample at or after this (the caches and the heap warm up before it). */
const SETTLED_SECONDS = Math.min(60, SECONDS / 3);

/** A process's resident memory in MB (Linux). */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const db = await benchDatabase(kind);
let failed = false;
try {
  const s = await setup(db.target);
  const server = await startBenchServer(db);
  try {
    const pid = server.proc.pid!;
    const headers = { authorization: s.auth, 'content-type': 'application/json' };
    let order = 0;
    // Each connection sends these in turn: two writes (a pay link, a charge with its own order id), two reads.
    const requests = [
      {
        method: 'POST',
        path: '/api/v1/pay-link',
        body: JSON.stringify({ merchant_key: s.merchantKey, amount: '25.00' }),
      },
      {
        method: 'POST',
        path: `/api/v1/customers/charge/${s.customerId}`,
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: JSON.stringify({
            merchant_key: s.merchantKey,
            amount: 12.5,
            order_id: `soak-${order++}`,
            preAuth: false,
          }),
        }),
      },
      {
        method: 'GET',
        path: `/api/v1/merchant/transactions/${s.readId}`,
        body: JSON.stringify({ merchant_key: s.merchantKey }),
      },
      {
        method: 'GET',
        path: '/api/v1/merchant/transactions',
        body: JSON.stringify({ merchant_key: s.merchantKey, limit: '20', pageNumber: 0 }),
      },
    ] as unknown as autocannon.Request[];
    const started = Date.now();
    const series: Array<{ s: number; mb: number; requests: number }> = [];
    let answered = 0;
    const run = new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        { url: server.base, connections: CONNECTIONS, duration: SECONDS, headers, requests },
        (err, r) => (err ? reject(err) : resolve(r)),
      );
      instance.on('response', () => answered++);
    });
    const sample = () => {
      const at = { s: Math.round((Date.now() - started) / 1000), mb: rssMb(pid), requests: answered };
      series.push(at);
      console.log(`${String(at.s).padStart(4)} s  ${at.mb.toFixed(0).padStart(5)} MB  ${at.requests} requests`);
    };
    sample();
    const timer = setInterval(sample, SAMPLE_SECONDS * 1000);
    const result = await run;
    clearInterval(timer);
    sample();
    const settled = series.find((x) => x.s >= SETTLED_SECONDS) ?? series[0]!;
    const last = series.at(-1)!;
    const growth = last.mb - settled.mb;
    const rate = (growth * 1024) / Math.max(1, last.s - settled.s);
    console.log(
      `${kind}: ${result['2xx']} answered 2xx, ${result.non2xx} other, ${result.errors} errors; ` +
        `RSS ${settled.mb.toFixed(0)} MB at ${settled.s} s -> ${last.mb.toFixed(0)} MB at ${last.s} s ` +
        `(${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB, ${rate.toFixed(0)} KB/s; allowed +${GROWTH_MB} MB)`,
    );
    if (growth > GROWTH_MB) failed = true;
    if (result.non2xx + result.errors > 0) {
      console.log('some requests failed');
      failed = true;
    }
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
process.exit(failed ? 1 : 0);
