export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered (successes). */
  count?: number;
  /** CPU time (user + system, µs) per answered request of the process doing the work: the server under HTTP, the replaying process for a ceiling. */
  cpuUs?: number;
  /** CPU time (µs) per answered request of every process taking part: load tool or driver, server, Postgres. */
  costUs?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)]!;
}

export const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(5)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms${f.errors ? `  (${f.errors} errors)` : ''}`;
