import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';
import { signalCommits } from '../outbox-signal.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: functions that only read or write take this. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface ConnectOptions {
  /** `postgres://…` to use Postgres; otherwise embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** Postgres pool size. */
  poolSize?: number;
  /** Sees every statement (the benchmark records an endpoint's SQL with it). */
  logger?: { logQuery(query: string, params: unknown[]): void };
}

/** Opens the database and applies migrations before returning. */
export async function connectDatabase(opts: ConnectOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    // An idle client whose server connection drops (restart, failover, DROP DATABASE) emits here;
    // unhandled it would end the process. The pool replaces the client on next use.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, logger: opts.logger });
    await migratePg(db, { migrationsFolder });
    return { db: signalCommits(db as unknown as Db), kind: 'postgres', close: () => pool.end() };
  }
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  const db = drizzlePglite(client, { schema, logger: opts.logger });
  await migratePglite(db, { migrationsFolder });
  return { db: signalCommits(db as unknown as Db), kind: 'pglite', close: () => client.close() };
}
