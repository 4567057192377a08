import { DrizzleQueryError, is, Param, Placeholder, type SQL } from 'drizzle-orm';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Queryable } from './connect.js';
import { asText, DRIZZLE_TEXT_TYPES } from './date-types.js';

const dialect = new PgDialect();

/** A statement built once per database handle, run by name with only its placeholder values. */
export interface PreparedSql {
  run(q: Queryable, values: Record<string, unknown>): Promise<unknown>;
}

/** One parameter's value from the placeholder values (a Placeholder's, encoded as its column's), or a constant. */
type Fill = (values: Record<string, unknown>) => unknown;

/** What a handle's Drizzle session holds that a run needs: the driver's client (a pool, a pooled client, a PGlite or its transaction) and the logger. */
interface Session {
  client: { query(...args: unknown[]): Promise<unknown> };
  logger: { logQuery(query: string, params: unknown[]): void };
}

/** Dates, times and intervals stay text (as Drizzle's node-postgres queries ask); others parse as pg's defaults. One object, not one per query. */
const DATE_TEXT_TYPES = new Set(DRIZZLE_TEXT_TYPES);
const pgTypes = {
  getTypeParser: (oid: number, format?: string) =>
    DATE_TEXT_TYPES.has(oid) ? asText : pg.types.getTypeParser(oid, format as 'text'),
};

/**
 * A hand-written statement (a data-modifying CTE, say), prepared: the SQL is built once, node-postgres
 * sends the name (each pooled connection parses and plans it once; PGlite's client names it itself,
 * pglite-wire.ts) and each call only fills the `sql.placeholder` values. A name is given to one
 * statement only.
 *
 * It goes to the driver as Drizzle's own `.prepare(name).execute()` would send it (same text, name,
 * parameters, type parsers, logger line; a failure is a DrizzleQueryError), without that path's
 * per-call work: every parameter's kind tested again, tracing spans, a type-parser function made
 * per column, which a pay-link paid on every statement (docs/benchmarks.md, "What the profiles found").
 *
 * @example
 *   const touch = preparedSql('remit_touch', () => sql`update t set at = now() where id = ${sql.placeholder('id')}`);
 *   await touch.run(db, { id });
 */
export function preparedSql(name: string, statement: SQL | ((q: Queryable) => SQL)): PreparedSql {
  let built: { text: string; fills: Fill[]; config: object } | undefined;
  return {
    async run(q, values) {
      // Built at the first run, with that run's handle for a statement made with Drizzle's builder.
      built ??= build(name, typeof statement === 'function' ? statement(q) : statement);
      const { text, fills, config } = built;
      const params = fills.map((fill) => fill(values));
      const session = (q as unknown as { _: { session: Session } })._.session;
      session.logger.logQuery(text, params);
      try {
        return await ((session as unknown) instanceof NodePgSession
          ? session.client.query(config, params)
          : session.client.query(text, params));
      } catch (e) {
        throw new DrizzleQueryError(text, params, e as Error);
      }
    },
  };
}

/**
 * The statement's text, how each parameter is filled (as Drizzle's `fillPlaceholders` fills them),
 * and pg's query config. pg copies a config's own properties on every query through their
 * descriptors (about a microsecond each time); this one holds them on its prototype, so the copy
 * has nothing to take and pg reads them through it.
 */
function build(name: string, statement: SQL): { text: string; fills: Fill[]; config: object } {
  const query = dialect.sqlToQuery(statement);
  const fills = query.params.map((p): Fill => {
    const placeholder = is(p, Placeholder)
      ? p
      : is(p, Param) && is(p.value, Placeholder)
        ? (p.value as Placeholder)
        : null;
    if (!placeholder) return () => p;
    const key = placeholder.name;
    const encode = is(p, Param) ? (v: unknown) => p.encoder.mapToDriverValue(v) : (v: unknown) => v;
    return (values) => {
      if (!(key in values)) throw new Error(`No value for placeholder "${key}" was provided`);
      return encode(values[key]);
    };
  });
  return { text: query.sql, fills, config: Object.create({ name, text: query.sql, types: pgTypes }) };
}

/**
 * `make(handle)` once per database handle (a transaction is a handle of its own), kept while the
 * handle lives.
 */
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

/** The keys of a row's columns given a value (undefined ones take their column defaults): a row's shape. */
export function givenKeys<R extends object>(row: R): Array<keyof R & string> {
  const keys: Array<keyof R & string> = [];
  for (const k in row) if (row[k] !== undefined) keys.push(k);
  return keys;
}

/**
 * A column's placeholder name (`prefix` + key), made once per key: a name concatenated on every call
 * is a new string to hash each time the values are bound.
 */
export function placeholderNames(prefix: string): (key: string) => string {
  const names = new Map<string, string>();
  return (key) => names.get(key) ?? names.set(key, `${prefix}${key}`).get(key)!;
}
