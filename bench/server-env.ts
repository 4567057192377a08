/** `BENCH_SERVER_ENV='A=1 B=2'`: extra environment for the server under load (to compare settings side by side). */
export function serverEnv(spec = process.env.BENCH_SERVER_ENV): Record<string, string> {
  const pairs = (spec ?? '').split(/\s+/).filter(Boolean);
  // The per-client API limit (6000/min by default) would cap the load at 100 req/s: raised, not off,
  // so the limiter's own cost stays in the figures.
  return {
    REMIT_RATE_LIMIT_API_PER_CLIENT: '100000000/1m',
    ...Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)])),
  };
}
