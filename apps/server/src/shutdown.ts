import type { FastifyBaseLogger } from 'fastify';

export interface ShutdownSteps {
  /** Stops accepting connections and resolves once the requests in flight are answered. */
  http(): Promise<void>;
  /** Stops the dispatchers once the deliveries and messages in progress are done and recorded. */
  workers(): Promise<void>;
  /** Closes the database (flushes the embedded one to disk). */
  database(): Promise<void>;
}

/** REMIT_SHUTDOWN_TIMEOUT_MS: how long a drain may take before the process gives up and exits 1. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 20_000;

export function shutdownTimeoutFromEnv(env: NodeJS.ProcessEnv): number {
  const v = env.REMIT_SHUTDOWN_TIMEOUT_MS;
  if (v === undefined || v === '') return DEFAULT_SHUTDOWN_TIMEOUT_MS;
  if (!/^\d+$/.test(v.trim()) || Number(v) <= 0)
    throw new Error(`REMIT_SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds above 0, not "${v}"`);
  return Number(v);
}

/**
 * SIGTERM and SIGINT drain the process: no new connections, the requests in flight answered and
 * the deliveries in progress finished (side by side), then the database closed; one log line per
 * step, exit 0. A drain longer than `timeoutMs` logs what it still waited for and exits 1.
 */
export function drainOnSignals(steps: ShutdownSteps, log: FastifyBaseLogger, timeoutMs: number, exit = process.exit) {
  let draining = false;
  const drain = async (signal: string) => {
    if (draining) return;
    draining = true;
    const started = performance.now();
    const pending = new Set(['requests in flight', 'deliveries in progress', 'database']);
    const timer = setTimeout(() => {
      log.error(
        { waiting_for: [...pending] },
        `shutdown: not finished after ${timeoutMs} ms (waiting for ${[...pending].join(', ')}); exiting with 1`,
      );
      exit(1);
    }, timeoutMs);
    log.info({ signal }, `shutdown: ${signal} received; no longer accepting connections, draining`);
    const step = async (what: string, run: () => Promise<void>, done: string) => {
      await run();
      pending.delete(what);
      log.info(`shutdown: ${done}`);
    };
    try {
      await Promise.all([
        step('requests in flight', steps.http, 'requests in flight answered, HTTP server closed'),
        step('deliveries in progress', steps.workers, 'workers stopped, deliveries in progress finished'),
      ]);
      await step('database', steps.database, 'database closed');
    } catch (err) {
      clearTimeout(timer);
      log.error({ err }, 'shutdown: failed');
      return exit(1);
    }
    clearTimeout(timer);
    log.info(`shutdown: done in ${Math.round(performance.now() - started)} ms`);
    exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void drain(signal));
}
