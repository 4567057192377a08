// The test kit's figures (docs/testing.md): startSandbox() to ready, the median of 10 in a row,
// and the memory of one idle sandbox: the resident size of a process holding it, and what it added.
// Measured in a child process of its own, so the bench's other work does not weigh on either.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startSandbox } from '../packages/testing/src/index.js';

const RUNS = 10;
const MB = 1024 * 1024;

async function measure() {
  const rssBefore = process.memoryUsage().rss;
  const idle = await startSandbox();
  await new Promise((r) => setTimeout(r, 2000));
  globalThis.gc?.();
  const rssIdle = process.memoryUsage().rss;
  await idle.stop();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const s = await startSandbox();
    times.push(performance.now() - t);
    await s.stop();
  }
  times.sort((a, b) => a - b);
  return {
    medianMs: (times[4]! + times[5]!) / 2,
    minMs: times[0]!,
    maxMs: times[RUNS - 1]!,
    rssIdleMb: rssIdle / MB,
    addedMb: (rssIdle - rssBefore) / MB,
  };
}

export async function runSandboxBench(): Promise<void> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', new URL(import.meta.url).pathname, '--child'],
    { maxBuffer: 1 << 20 },
  );
  const f = JSON.parse(stdout.trim().split('\n').pop()!);
  console.log(`\n== test kit (@remit/testing) ==`);
  console.log(
    `startSandbox() to ready: median ${f.medianMs.toFixed(0)} ms of ${RUNS} in a row (min ${f.minMs.toFixed(0)}, max ${f.maxMs.toFixed(0)})`,
  );
  console.log(
    `one idle sandbox: ${f.rssIdleMb.toFixed(0)} MB resident in its process, ${f.addedMb.toFixed(0)} MB of it added by the sandbox`,
  );
}

if (process.argv.includes('--child')) {
  console.log(JSON.stringify(await measure()));
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  await runSandboxBench();
}
