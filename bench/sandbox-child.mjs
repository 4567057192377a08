// bench/sandbox.ts's measuring process: plain Node importing the built kit, as a merchant's test
// runner would, so that no TypeScript loader weighs on its memory. Prints one JSON line.
import { loadavg } from 'node:os';

const RUNS = Number(process.argv[2] ?? 10);
const dist = new URL('../packages/testing/dist/index.js', import.meta.url);

/** Wall time and the CPU the whole process (all its threads) spent on `run`. */
async function timed(run) {
  const t = performance.now();
  const c = process.cpuUsage();
  const value = await run();
  const cpu = process.cpuUsage(c);
  return [value, { ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000 }];
}

const rssBefore = process.memoryUsage().rss;
const [kit, load] = await timed(() => import(dist.href));
const [idle, first] = await timed(() => kit.startSandbox());
await new Promise((r) => setTimeout(r, 2000));
globalThis.gc?.();
const { rss: rssIdle, heapUsed } = process.memoryUsage();
await idle.stop();
const starts = [];
for (let i = 0; i < RUNS; i++) {
  const [s, start] = await timed(() => kit.startSandbox());
  starts.push(start);
  await s.stop();
}
console.log(JSON.stringify({ load, first, starts, rssBefore, rssIdle, heapUsed, load1: loadavg()[0] }));
process.exit(0);
