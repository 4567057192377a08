// The test kit's figures (docs/testing.md, docs/benchmarks.md "Test kit"): startSandbox() to ready,
// the first start of a process apart, then the median and p90 of 10 starts in a row (each stopped
// before the next), wall time and the CPU the process spent on it; and the memory of one idle
// sandbox: the resident size of a process holding it, what it added, and its JavaScript heap.
// Measured on the built package (packages/testing/dist, what a merchant installs) by plain Node in a
// process of its own (bench/sandbox-child.mjs), so that neither the bench's other work nor tsx weighs on either.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const RUNS = 10;
const MB = 1024 * 1024;
const DIST = new URL('../packages/testing/dist/index.js', import.meta.url);

interface Start {
  ms: number;
  cpuMs: number;
}

interface Measured {
  load: Start;
  first: Start;
  starts: Start[];
  rssBefore: number;
  rssIdle: number;
  heapUsed: number;
  load1: number;
}

/** The value below which `q` of the sorted values lie (nearest rank). */
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const median = (sorted: number[]) => (sorted[(sorted.length - 1) >> 1]! + sorted[sorted.length >> 1]!) / 2;

export async function runSandboxBench(): Promise<void> {
  if (!existsSync(DIST))
    throw new Error(
      'bench/sandbox.ts measures the built kit: run npm run build -w @remit/testing first (npm run bench does)',
    );
  const before = loadavg()[0]!;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', fileURLToPath(new URL('./sandbox-child.mjs', import.meta.url)), String(RUNS)],
    { maxBuffer: 1 << 20 },
  );
  const f = JSON.parse(stdout.trim().split('\n').pop()!) as Measured;
  const ms = f.starts.map((s) => s.ms).sort((a, b) => a - b);
  const cpu = f.starts.map((s) => s.cpuMs).sort((a, b) => a - b);
  const n = (x: number) => x.toFixed(0);
  console.log(
    `\n== test kit (@remit/testing, built): load average ${before.toFixed(2)} at start, ${f.load1.toFixed(2)} at end ==`,
  );
  console.log(
    `startSandbox() to ready, ${RUNS} in a row: median ${n(median(ms))} ms, p90 ${n(quantile(ms, 0.9))} ms (min ${n(ms[0]!)}, max ${n(ms[RUNS - 1]!)}); CPU median ${n(median(cpu))} ms, p90 ${n(quantile(cpu, 0.9))} ms`,
  );
  console.log(
    `first start of the process: ${n(f.first.ms)} ms (CPU ${n(f.first.cpuMs)} ms), after importing the kit: ${n(f.load.ms)} ms (CPU ${n(f.load.cpuMs)} ms)`,
  );
  console.log(
    `one idle sandbox: ${n(f.rssIdle / MB)} MB resident in its process, ${n((f.rssIdle - f.rssBefore) / MB)} MB of it added by the kit and the sandbox; JavaScript heap ${n(f.heapUsed / MB)} MB`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runSandboxBench();
}
