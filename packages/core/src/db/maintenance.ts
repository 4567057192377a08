import { sql } from 'drizzle-orm';
import type { Database } from './connect.js';

const EVERY_MS = 10 * 60 * 1000;

/**
 * PGlite runs no autovacuum: without statistics the planner sorts a merchant's whole history for
 * one page, and without a visibility map counts read every row. Postgres does this on its own.
 */
export function startMaintenance(database: Database): { stop(): void } {
  if (database.kind !== 'pglite') return { stop() {} };
  const run = () => database.db.execute(sql`vacuum analyze`).catch(() => {});
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  void run();
  return { stop: () => clearInterval(timer) };
}
