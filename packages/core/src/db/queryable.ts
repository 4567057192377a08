import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/** The database handle and its transaction, in a file of their own so that storage's modules import them without importing connect.ts. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or an open transaction: functions that only read or write take this. */
export type Queryable = Db | Tx;
