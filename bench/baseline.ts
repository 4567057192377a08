/**
 * The figures of an earlier run (`npm run bench -- --save-baseline` writes bench/baseline.json),
 * so that every run shows each route's change against them: nothing else may get slower.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const BASELINE_FILE = fileURLToPath(new URL('./baseline.json', import.meta.url));

/** One route's figures as kept: req/s, p99 (ms), its ceiling (req/s). */
export interface Kept {
  rps: number;
  p99: number | null;
  ceiling: number;
}

export interface Baseline {
  saved: string;
  commit: string;
  /** 1-minute load average when the run ended: figures from a loaded machine are lower. */
  load: number;
  seconds: number;
  routes: Record<string, Record<string, Kept>>;
}

/** A fall in req/s past this is flagged; less is within a run's noise on this machine. */
const NOISE = 0.1;

export function readBaseline(): Baseline | null {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline) : null;
}

export function saveBaseline(routes: Baseline['routes'], seconds: number) {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {}
  const b: Baseline = {
    saved: new Date().toISOString(),
    commit,
    load: Number(loadavg()[0]!.toFixed(2)),
    seconds,
    routes,
  };
  writeFileSync(BASELINE_FILE, `${JSON.stringify(b, null, 2)}\n`);
  console.log(`\nbaseline saved to bench/baseline.json (commit ${commit}, load ${b.load})`);
}

const pct = (now: number, before: number) =>
  `${now >= before ? '+' : ''}${(((now - before) / before) * 100).toFixed(0)}%`;

/**
 * Each route's change against the baseline: req/s and the ratio to its ceiling (which moves less
 * with the machine's load than req/s does). SLOWER when req/s fell by more than the noise.
 */
export function compareToBaseline(b: Baseline | null, kind: string, now: Record<string, Kept>): string[] {
  if (!b) return ['  (no bench/baseline.json: `npm run bench -- --save-baseline` keeps this run as one)'];
  const before = b.routes[kind];
  if (!before) return [`  (the baseline has no ${kind} figures)`];
  const lines = [`  against the baseline (${b.commit}, ${b.saved.slice(0, 16)}, load ${b.load}):`];
  for (const [route, was] of Object.entries(before)) {
    const is = now[route];
    if (!is) {
      lines.push(`    ${route.padEnd(22)} not measured in this run`);
      continue;
    }
    const ratio = (k: Kept) => (k.rps / k.ceiling) * 100;
    const p99 = is.p99 !== null && was.p99 !== null ? `  p99 ${was.p99.toFixed(0)} → ${is.p99.toFixed(0)} ms` : '';
    lines.push(
      `    ${route.padEnd(22)} ${was.rps.toFixed(0).padStart(6)} → ${is.rps.toFixed(0).padStart(6)} req/s (${pct(is.rps, was.rps).padStart(4)})` +
        `  ratio ${ratio(was).toFixed(0)}% → ${ratio(is).toFixed(0)}%${p99}${is.rps < was.rps * (1 - NOISE) ? '  SLOWER' : ''}`,
    );
  }
  for (const route of Object.keys(now).filter((r) => !before[r]))
    lines.push(`    ${route.padEnd(22)} new (not in the baseline)`);
  return lines;
}
