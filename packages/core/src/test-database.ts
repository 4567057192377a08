/**
 * Throwaway databases for tests and benches (re-exported by `@remit/core/testing`).
 *
 * Tests run against PGlite by default; `REMIT_TEST_DB=postgres` runs them on the local Postgres
 * (`TEST_POSTGRES_URL`), each in a throwaway database of its own that the caller drops.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratedTemplate } from './db/migrated-template.js';

export const testDbKind: 'postgres' | 'pglite' = process.env.REMIT_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** The Postgres that throwaway databases are created in (and dropped from). */
export const testPostgresAdminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** The connection URL of the new database. */
  url: string;
  /** Its name on the admin Postgres. */
  name: string;
  /** Drops the database, closing any connections still open to it. */
  drop(): Promise<void>;
}

async function adminQuery(sql: string) {
  const c = new pg.Client({ connectionString: testPostgresAdminUrl });
  await c.connect();
  await c.query(sql);
  await c.end();
}

/**
 * A fresh database on the admin Postgres, named `<prefix>_<pid>_<random>`: by default with every
 * migration applied (a copy of the migrated template, db/migrated-template.ts, kept on that Postgres
 * for later runs), `'empty'` for a test of the migrations or of a first start, or a copy of another
 * (`copyOf`, its name; nothing may be connected to it meanwhile).
 */
export async function createTestDatabase(
  prefix = 'remit_t',
  from: 'migrated' | 'empty' | { copyOf: string } = 'migrated',
): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(5).toString('hex')}`;
  const template =
    from === 'migrated' ? await migratedTemplate(testPostgresAdminUrl) : from === 'empty' ? null : from.copyOf;
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
