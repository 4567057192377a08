import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Queryable } from './connect.js';

const dialect = new PgDialect();

/** A statement built once per database handle, run by name with only its placeholder values. */
export interface PreparedSql {
  run(q: Queryable, values: Record<string, unknown>): Promise<unknown>;
}

type Prepared = { execute(values: Record<string, unknown>): Promise<unknown> };

/**
 * A hand-written statement (a data-modifying CTE, say) prepared like Drizzle's own `.prepare(name)`:
 * the SQL is built once, node-postgres sends the name (each pooled connection parses and plans it
 * once) and each call only fills the `sql.placeholder` values. A name is given to one statement only. Prepared per handle (a transaction is a handle of its own).
 *
 * @example
 *   const touch = preparedSql('remit_touch', () => sql`update t set at = now() where id = ${sql.placeholder('id')}`);
 *   await touch.run(db, { id });
 */
export function preparedSql(name: string, statement: SQL | (() => SQL)): PreparedSql {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  const prepared = perHandle((q: Queryable) => {
    query ??= dialect.sqlToQuery(typeof statement === 'function' ? statement() : statement);
    return q._.session.prepareQuery(query, undefined, name, false) as unknown as Prepared;
  });
  return { run: (q, values) => prepared(q).execute(values) };
}

/** `make(handle)` once per database handle (a transaction is a handle of its own), kept while the handle lives. */
export function perHandle<H extends object, T>(make: (handle: H) => T): (handle: H) => T {
  const made = new WeakMap<H, T>();
  return (handle) => {
    let v = made.get(handle);
    if (v === undefined) made.set(handle, (v = make(handle)));
    return v;
  };
}

/**
 * Statements prepared once per shape of their input (which columns are given, say), named
 * `<prefix><n>`. Inputs have few shapes; past `max` it answers null and the caller builds the
 * statement each time, so no input can grow the set of names without bound.
 */
export function preparedByShape(prefix: string, max = 64): (shape: string, build: () => SQL) => PreparedSql | null {
  const byShape = new Map<string, PreparedSql>();
  return (shape, build) => {
    let p = byShape.get(shape);
    if (!p) {
      if (byShape.size >= max) return null;
      byShape.set(shape, (p = preparedSql(`${prefix}${byShape.size}`, build)));
    }
    return p;
  };
}
