/**
 * Webhook delivery benchmark, on PGlite and Postgres: deliveries per second to a local receiver
 * (a backlog of events drained by one dispatcher), and the delay from an event's commit to its
 * arrival at the receiver (p50, p99) with no retries pending, once with the dispatcher woken by
 * the commit (the default) and once by its 50 ms poll alone. Goal: p99 under 200 ms.
 * Run alone with `tsx bench/webhooks.ts [pglite|postgres]`; `runWebhookBench()` is what `npm run bench`
 * calls. BENCH_WEBHOOK_ONLY=throughput measures the drain alone; BENCH_WEBHOOK_CORE=<checkout>/packages/core/src/index.ts
 * runs another checkout's core (bench/webhook-compare.ts sets both).
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Core } from '@remit/core';
import { createTestDatabase } from '@remit/core/testing';
import { pgDriver, pgliteDriver, SqlRecorder, type Driver, type Statement } from './replay.js';
import { percentile } from './stats.js';
import { postgresCpuMs, processCpuTotalMs, threadCpuMs, threadsCpuMs } from './process-cpu.js';
import { benchDatabaseUrl } from './setup.js';

// Another checkout's core, for a side-by-side run (its own migrations, statements and dispatcher).
const { createCredentials, inTransaction, openCore, recordEvent, updateWebhookUrl, WebhookDispatcher } = (await import(
  process.env.BENCH_WEBHOOK_CORE || '@remit/core'
)) as typeof import('@remit/core');
const THROUGHPUT_ONLY = process.env.BENCH_WEBHOOK_ONLY === 'throughput';
const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 2000);
/** The dispatcher's deliveries in flight in this bench. */
export const CLAIM_CONCURRENCY = 32;
const LATENCY_EVENTS = Number(process.env.BENCH_WEBHOOK_LATENCY_EVENTS ?? 200);

export interface WebhookFigures {
  database: 'pglite' | 'postgres';
  deliveriesPerSecond: number;
  /** The claim loop's own statements (prepare, claim, record the results) with no HTTP: deliveries/s. */
  ceiling: number;
  p50: number;
  p99: number;
  /**
   * CPU ms per delivery during the drain: the bench process's main thread (the dispatcher), the
   * receiver's process, and the database (Postgres's processes; PGlite's thread and the rest of
   * the bench process's threads). PGlite: `busiestThread`, the busiest of those other threads (its
   * database's thread: what bounds the drain, since it runs on one core).
   */
  cpuPerDelivery: { dispatcher: number; receiver: number; database: number; busiestThread?: number };
  /** The same delays with the wake-up on commit turned off (the poll alone). */
  pollOnly: { p50: number; p99: number };
}

/** The bench's clock, shared with the receiver's process: CLOCK_MONOTONIC (process.hrtime) in ms. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * The merchant's endpoint, in a child process (bench/webhook-receiver.mjs): its CPU is not the
 * dispatcher's. `arrivals` maps each `webhook-id` to its arrival time on `now()`'s clock.
 */
async function receiver() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./webhook-receiver.mjs', import.meta.url))], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const arrivals = new Map<string, number>();
  const clocks: Array<(at: number) => void> = [];
  let port: (p: number) => void;
  const listening = new Promise<number>((r) => (port = r));
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const [a, b] = line.split(' ');
      if (a === 'listening') port(Number(b));
      else if (a === 'clock') clocks.shift()?.(Number(b));
      else arrivals.set(a!, Number(b));
    }
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${await Promise.race([listening, exited.then(() => Promise.reject(new Error('bench: the receiver exited')))])}/hooks`;
  // The arrival times are only comparable with ours if both processes read one clock.
  for (let i = 0; i < 5; i++) {
    const before = now();
    const theirs = await new Promise<number>((r) => (clocks.push(r), child.stdin.write('clock\n')));
    const after = now();
    if (!(before <= theirs && theirs <= after))
      throw new Error(`bench: the receiver's clock (${theirs}) is not ours (${before}..${after})`);
  }
  return {
    url,
    arrivals,
    /** The receiver's CPU so far, ms. */
    cpuMs: () => processCpuTotalMs(child.pid!),
    close: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** This process's CPU so far (ms), every thread. */
const ownCpuMs = () => processCpuTotalMs(process.pid);

/** The main thread's CPU so far (ms): the dispatcher's JavaScript (PGlite runs on a thread of its own). */
function mainThreadCpuMs() {
  const c = threadCpuMs(process.pid, process.pid);
  return c.user + c.system;
}

/** The most CPU (ms) any thread of this process but the main one used since `before`. */
function busiestOtherThread(before: Map<number, number>): number {
  let most = 0;
  for (const [tid, ms] of threadsCpuMs(process.pid))
    if (tid !== process.pid) most = Math.max(most, ms - (before.get(tid) ?? 0));
  return most;
}

async function waitFor(pred: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > until) throw new Error('bench: timed out waiting for deliveries');
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function benchOne(database: 'pglite' | 'postgres'): Promise<WebhookFigures> {
  const db = database === 'postgres' ? await createTestDatabase('remit_bench_wh') : null;
  const databaseUrl = db ? benchDatabaseUrl(db.url) : undefined;
  const recorder = new SqlRecorder();
  const core: Core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl,
    logger: recorder,
    onStatement: recorder.onStatement,
  });
  const rx = await receiver();
  try {
    const { client_id } = await createCredentials(core.ctx);
    await updateWebhookUrl(core.ctx, client_id, { webhook_url: rx.url });
    const data = { merchant_id: 'm_bench', guid: 'txn_bench', amount: 1, order_id: 'o', customer_id: 0 };

    const backlog = async () => {
      for (let i = 0; i < BACKLOG; i += 100) {
        await inTransaction(core.ctx, async (_tx, c) => {
          for (let j = i; j < Math.min(i + 100, BACKLOG); j++)
            await recordEvent(c, { clientId: client_id, type: 'preauth', data });
        });
      }
    };
    // The statements of one pass that delivers one event, for the ceiling.
    const one = await inTransaction(core.ctx, (_tx, c) =>
      recordEvent(c, { clientId: client_id, type: 'preauth', data }),
    );
    const recordingPass = new WebhookDispatcher(core.ctx, { concurrency: CLAIM_CONCURRENCY, wakeOnCommit: false });
    const pass = (await recorder.record(() => recordingPass.runOnce())).flatMap((step) => step.statements);
    await recordingPass.stop();
    await waitFor(() => rx.arrivals.has(one), 5_000).catch(() =>
      Promise.reject(new Error('bench: the recorded pass delivered nothing')),
    );

    // Throughput: a backlog written first, then drained, timed to the last arrival.
    await backlog();
    const before = rx.arrivals.size;
    const d = new WebhookDispatcher(core.ctx, { concurrency: CLAIM_CONCURRENCY });
    const cpu0 = { main: mainThreadCpuMs(), all: ownCpuMs(), rx: rx.cpuMs(), pg: databaseUrl ? postgresCpuMs() : 0 };
    const threads0 = threadsCpuMs(process.pid);
    const t0 = now();
    d.start();
    await waitFor(() => rx.arrivals.size >= before + BACKLOG, 300_000);
    const last = Math.max(...rx.arrivals.values());
    const deliveriesPerSecond = BACKLOG / ((last - t0) / 1000);
    const per = (ms: number) => ms / BACKLOG;
    const main = mainThreadCpuMs() - cpu0.main;
    const cpuPerDelivery = {
      dispatcher: per(main),
      receiver: per(rx.cpuMs() - cpu0.rx),
      database: per(databaseUrl ? postgresCpuMs() - cpu0.pg : ownCpuMs() - cpu0.all - main),
      busiestThread: databaseUrl ? undefined : per(busiestOtherThread(threads0)),
    };
    await d.stop();
    if (THROUGHPUT_ONLY)
      return {
        database,
        deliveriesPerSecond,
        ceiling: NaN,
        cpuPerDelivery,
        p50: NaN,
        p99: NaN,
        pollOnly: { p50: NaN, p99: NaN },
      };

    // Its ceiling: the same statements on a backlog of the same size, with no HTTP.
    await backlog();
    const driver = databaseUrl ? pgDriver(databaseUrl) : pgliteDriver(core.database, async () => {});
    let ceiling: number;
    try {
      ceiling = await drainWithoutHttp(driver, pass, `dlv_${one.slice(4)}`, BACKLOG);
    } finally {
      await driver.close();
    }

    // Latency: one event per commit, spaced out, measured from the commit's return to arrival;
    // the two modes alternate in rounds so both see the same machine load.
    const delays = { wake: [] as number[], poll: [] as number[] };
    for (let round = 0; round < 4; round++) {
      for (const mode of ['poll', 'wake'] as const) {
        const dl = new WebhookDispatcher(core.ctx, { concurrency: 32, wakeOnCommit: mode === 'wake' }).start();
        await new Promise((r) => setTimeout(r, 100)); // the loop idles before the first event
        const committed = new Map<string, number>();
        for (let i = 0; i < LATENCY_EVENTS / 4; i++) {
          const id = await inTransaction(core.ctx, (_tx, c) =>
            recordEvent(c, { clientId: client_id, type: 'preauth', data }),
          );
          committed.set(id, now());
          await new Promise((r) => setTimeout(r, 10 + Math.random() * 20));
        }
        await waitFor(() => [...committed.keys()].every((id) => rx.arrivals.has(id)), 60_000);
        await dl.stop();
        delays[mode].push(...[...committed].map(([id, at]) => rx.arrivals.get(id)! - at));
      }
    }
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    const wake = sorted(delays.wake);
    const poll = sorted(delays.poll);
    return {
      database,
      deliveriesPerSecond,
      ceiling,
      cpuPerDelivery,
      p50: percentile(wake, 50),
      p99: percentile(wake, 99),
      pollOnly: { p50: percentile(poll, 50), p99: percentile(poll, 99) },
    };
  } finally {
    await rx.close();
    await core.close();
    await db?.drop();
  }
}

/**
 * Replays a recorded pass (prepare, claim, the results written) until `expected` deliveries are
 * recorded: each claim gets a lease of its own. A result statement naming the delivery among its
 * parameters runs once per claimed delivery with its id and lease; one whose parameter is the
 * batch as JSON (`remit_webhook_results`) runs once per claim, with a row per claimed delivery
 * made from the recorded one. A whole batch is recorded before the next claim.
 */
async function drainWithoutHttp(
  driver: Driver,
  pass: Statement[],
  deliveryId: string,
  expected: number,
): Promise<number> {
  const names = (s: Statement) => s.params.includes(deliveryId);
  const batched = (s: Statement) =>
    s.params.some((p) => typeof p === 'string' && p.startsWith('[') && p.includes(deliveryId));
  const first = pass.findIndex((s) => names(s) || batched(s));
  const results = pass.slice(first).filter((s) => names(s) || batched(s));
  const claim = pass[first - 1];
  const leaseOf = (s: Statement) =>
    names(s)
      ? s.params.find((p) => typeof p === 'string' && claim?.params.includes(p))
      : (JSON.parse(s.params.find((p) => typeof p === 'string' && p.startsWith('['))! as string)[0]
          ?.lease_id as unknown);
  const lease = results[0] && leaseOf(results[0]);
  if (first < 1 || !claim || lease === undefined || !claim.params.includes(lease))
    throw new Error('bench: the recorded pass has no claim and delivery result');
  const prepare = pass.slice(0, first - 1);
  const run = async (s: Statement, swap: (p: unknown) => unknown) =>
    (await driver.run({ kind: 'group', statements: [s] }, [s.params.map(swap)]))[0]!;
  const t0 = performance.now();
  let delivered = 0;
  while (delivered < expected) {
    for (const s of prepare) await run(s, (p) => p);
    const mine = randomBytes(12).toString('base64url');
    const rows = await run(claim, (p) => (p === lease ? mine : p));
    if (!rows.length) break;
    for (const s of results.filter(batched)) {
      await run(s, (p) => {
        if (typeof p !== 'string' || !p.startsWith('[') || !p.includes(deliveryId)) return p;
        const [recorded] = JSON.parse(p) as Array<Record<string, unknown>>;
        return JSON.stringify(rows.map((row) => ({ ...recorded, id: row.id, lease_id: row.lease_id })));
      });
    }
    await Promise.all(
      rows.map(async (row) => {
        for (const s of results.filter(names))
          await run(s, (p) => (p === deliveryId ? row.id : p === lease ? row.lease_id : p));
      }),
    );
    delivered += rows.length;
  }
  if (delivered < expected) throw new Error(`bench: the claim loop's ceiling drained ${delivered} of ${expected}`);
  return delivered / ((performance.now() - t0) / 1000);
}

export async function runWebhookBench(
  databases: Array<'pglite' | 'postgres'> = ['pglite', 'postgres'],
): Promise<WebhookFigures[]> {
  const out: WebhookFigures[] = [];
  for (const db of databases) {
    const f = await benchOne(db);
    out.push(f);
    // What the machine allows at most: its cores over the CPU a delivery costs everywhere (dispatcher,
    // receiver, database), which the ceiling (the database alone) does not pay.
    const cpu = f.cpuPerDelivery.dispatcher + f.cpuPerDelivery.receiver + f.cpuPerDelivery.database;
    console.log(
      `webhooks ${db.padEnd(8)} ${f.deliveriesPerSecond.toFixed(0).padStart(6)} deliveries/s (claim loop's SQL alone ${f.ceiling.toFixed(0)}/s: ` +
        `${((100 * f.deliveriesPerSecond) / f.ceiling).toFixed(0)}%; ${cpus().length} cores ÷ ${cpu.toFixed(2)} ms CPU a delivery = ${((cpus().length * 1000) / cpu).toFixed(0)}/s at most)  commit→receiver p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms (goal < 200); ` +
        `poll alone p50 ${f.pollOnly.p50.toFixed(1)} ms  p99 ${f.pollOnly.p99.toFixed(1)} ms; ` +
        `CPU per delivery: dispatcher ${f.cpuPerDelivery.dispatcher.toFixed(3)} ms, receiver ${f.cpuPerDelivery.receiver.toFixed(3)} ms, database ${f.cpuPerDelivery.database.toFixed(3)} ms` +
        (f.cpuPerDelivery.busiestThread === undefined
          ? ''
          : ` (its busiest thread, PGlite's: ${f.cpuPerDelivery.busiestThread.toFixed(3)} ms, at most ${(1000 / f.cpuPerDelivery.busiestThread).toFixed(0)}/s on one core)`),
    );
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  await runWebhookBench(only === 'pglite' || only === 'postgres' ? [only] : undefined);
}
