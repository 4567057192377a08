import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrationsFolder, type Db } from './connect.js';

/** `reason` is safe to show anyone; `detail` (the driver's error) is for the log. */
export type Readiness = { ready: true } | { ready: false; reason: string; detail?: string };

let latestMigration: number | undefined;

/** When the newest migration this code ships was made (drizzle records it as `created_at`). */
function expectedMigration(): number {
  latestMigration ??= Math.max(...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
  return latestMigration;
}

/**
 * `GET /readyz`: the database answers within `timeoutMs` and holds every migration this code
 * ships. A process keeps answering its liveness while the database is away; this says whether
 * it can serve requests now.
 */
export async function readiness(db: Db, timeoutMs = 2_000): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `the database did not answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const check = (async (): Promise<Readiness> => {
    try {
      const r = await db.execute(
        sql`select coalesce(max(created_at), 0)::text as latest from drizzle.__drizzle_migrations`,
      );
      const latest = Number((r as unknown as { rows: Array<{ latest: string }> }).rows[0]?.latest ?? 0);
      return latest >= expectedMigration()
        ? { ready: true }
        : { ready: false, reason: 'database migrations are not all applied' };
    } catch (err) {
      return { ready: false, reason: 'the database did not answer', detail: (err as Error).message };
    }
  })();
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
