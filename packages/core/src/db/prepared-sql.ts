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
  const byHandle = new WeakMap<object, Prepared>();
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  return {
    run(q, values) {
      let p = byHandle.get(q);
      if (!p) {
        query ??= dialect.sqlToQuery(typeof statement === 'function' ? statement() : statement);
        p = q._.session.prepareQuery(query, undefined, name, false) as unknown as Prepared;
        byHandle.set(q, p);
      }
      return p.execute(values);
    },
  };
}
