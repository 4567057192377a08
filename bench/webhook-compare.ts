/**
 * The webhook claim loop's drain (bench/webhooks.ts, throughput only), this checkout's core beside
 * another's, in alternating runs so both see the same machine: each run a fresh process and database.
 *
 *   BENCH_A_ROOT=/path/to/other/checkout tsx bench/webhook-compare.ts pglite|postgres
 *   BENCH_ROUNDS (3), BENCH_WEBHOOK_BACKLOG (2000)
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const rootA = process.env.BENCH_A_ROOT;
if (!rootA) throw new Error('bench: BENCH_A_ROOT names the checkout to compare with');
const script = fileURLToPath(new URL('./webhooks.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

/** Deliveries a second, and CPU ms per delivery of the dispatcher's thread and of the database. */
function drain(core: string | undefined): { rate: number; cpu: number } {
  const env = { ...process.env, BENCH_WEBHOOK_ONLY: 'throughput', ...(core ? { BENCH_WEBHOOK_CORE: core } : {}) };
  const r = spawnSync(tsx, [script, kind], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const m = /(\d+) deliveries\/s.*dispatcher ([\d.]+) ms, receiver [\d.]+ ms, database ([\d.]+) ms/.exec(r.stdout);
  if (r.status !== 0 || !m) throw new Error(`bench: the drain failed (${r.status}): ${r.stdout}`);
  return { rate: Number(m[1]), cpu: Number(m[2]) + Number(m[3]) };
}

const runs = { A: [] as number[], B: [] as number[] };
const cpu = { A: [] as number[], B: [] as number[] };
const cores = { A: resolve(rootA, 'packages/core/src/index.ts'), B: undefined };
console.log(`== webhook claim loop, ${kind}: A ${rootA}, B this checkout; ${ROUNDS} rounds ==`);
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always follows the other.
  for (const x of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
    const v = drain(cores[x]);
    runs[x].push(v.rate);
    cpu[x].push(v.cpu);
    console.log(
      `  round ${round + 1} ${x}: ${v.rate} deliveries/s, CPU ${v.cpu.toFixed(3)} ms a delivery (dispatcher and database)`,
    );
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `median: A ${median(runs.A)}, B ${median(runs.B)} deliveries/s; CPU A ${median(cpu.A).toFixed(3)}, B ${median(cpu.B).toFixed(3)} ms a delivery`,
);
