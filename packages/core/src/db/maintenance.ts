import { sql } from 'drizzle-orm';
import type { Database, Db } from './connect.js';

/** How often the tables' change counts are looked at (Postgres's autovacuum naptime is 60 s). */
const CHECK_MS = 15_000;

/**
 * PGlite runs no autovacuum, so the server does its work: without statistics the planner sorts a
 * merchant's whole history for one page, without a visibility map counts read every row, and a
 * prepared statement keeps the plan it was given when its tables were small (a seq scan that grows
 * with them) until an ANALYZE replans it. At start every table is vacuumed and analyzed (unless the
 * database is known fresh from a vacuumed image: `vacuumAtStart: false`, the test kit's); then,
 * every CHECK_MS, each table past Postgres's autovacuum thresholds. Postgres does this on its own.
 */
export function startMaintenance(database: Database, opts: { vacuumAtStart?: boolean } = {}): { stop(): void } {
  if (database.kind !== 'pglite') return { stop() {} };
  let running: Promise<unknown> =
    opts.vacuumAtStart === false ? Promise.resolve() : database.db.execute(sql`vacuum analyze`).catch(() => {});
  const timer = setInterval(() => {
    running = running.then(() => maintainTables(database.db)).catch(() => {});
  }, CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Analyzes each table whose changes since its last analyze passed 50 + 10% of its rows, and vacuums
 * (and analyzes) each whose dead rows passed 50 + 20%: autovacuum's default thresholds.
 */
export async function maintainTables(db: Db): Promise<{ analyzed: string[]; vacuumed: string[] }> {
  const { rows } = (await db.execute(sql`
    select s.relname as name,
           s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze,
           s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) as vacuum
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public'
    order by s.relname`)) as unknown as { rows: Array<{ name: string; analyze: boolean; vacuum: boolean }> };
  const done = { analyzed: [] as string[], vacuumed: [] as string[] };
  for (const t of rows) {
    if (t.vacuum) {
      await db.execute(sql`vacuum analyze ${sql.identifier(t.name)}`);
      done.vacuumed.push(t.name);
    } else if (t.analyze) {
      await db.execute(sql`analyze ${sql.identifier(t.name)}`);
      done.analyzed.push(t.name);
    }
  }
  return done;
}

/**
 * After a purge (PGlite): a table that lost at least as many rows as it still holds is rewritten
 * (`VACUUM FULL`: its files shrink, the disk space goes back to the system; it is locked while
 * that runs, so it happens once after the first big purge, not every hour); any other table is
 * vacuumed, its free space reused by the rows that come next.
 */
export async function reclaimSpace(
  db: Db,
  purged: Array<{ table: string; deleted: number }>,
): Promise<{ rewritten: string[]; vacuumed: string[] }> {
  const done = { rewritten: [] as string[], vacuumed: [] as string[] };
  for (const { table, deleted } of purged) {
    // Counted, not read from the statistics: those may not have seen the purge yet.
    const { rows } = (await db.execute(
      sql`select count(*)::float8 as live from ${sql.identifier(table)}`,
    )) as unknown as {
      rows: Array<{ live: number }>;
    };
    if (deleted >= Number(rows[0]?.live ?? 0)) {
      await db.execute(sql`vacuum full analyze ${sql.identifier(table)}`);
      done.rewritten.push(table);
    } else {
      await db.execute(sql`vacuum analyze ${sql.identifier(table)}`);
      done.vacuumed.push(table);
    }
  }
  return done;
}
