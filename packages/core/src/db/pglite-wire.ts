import { types, type QueryOptions, type Results } from '@electric-sql/pglite';
import { execMessage, queryMessage, readAnswer, type Answer, type Parsers } from './wire-codec.js';

/**
 * PGlite driven by the wire protocol, as a network client drives Postgres: a query is one message
 * (Parse, Bind, Describe, Execute, Sync) and one pass through the database, where PGlite's own
 * `query` makes six (it parses, asks for the parameter types, binds, describes, executes and syncs
 * in turn) and parses the statement again on every call. The bytes are built and read here, on the
 * server's thread (wire-codec.ts); the database's thread only runs them (pglite-worker.mjs).
 */

/**
 * A parameter as text, with its type left to the database, as node-postgres sends it: the server's
 * statements run unchanged on Postgres through node-postgres, so they take the same values here.
 */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array)
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'function' || typeof value === 'symbol')
    throw new TypeError(`A ${typeof value} cannot be sent as a query parameter`);
  return JSON.stringify(value);
}

function arrayLiteral(values: unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayLiteral(v);
    const text = paramText(v)!;
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/** Names are unique in the process, so that sessions' name sets never collide, even on one database. */
let made = 0;

/**
 * Names for the statements a session has parsed, so that a statement sent again is bound to its
 * name instead of parsed and planned again (named prepared statements, as node-postgres's `name`).
 * A name is used once the database has confirmed its Parse; until then, calls parse the statement
 * unnamed. At most `max` names: past that, statements are sent unnamed (dynamic SQL cannot grow the set).
 */
export class StatementNames {
  readonly #names = new Map<string, { name: string; ready: boolean }>();
  constructor(readonly max = 500) {}

  /** The name to bind to, and whether this call must send the Parse (naming it, or unnamed). */
  take(text: string, types: readonly number[] | undefined): { name: string; parse: boolean; key: string } {
    const key = types?.length ? `${types.join(',')}\u0000${text}` : text;
    const known = this.#names.get(key);
    if (known?.ready) return { name: known.name, parse: false, key };
    if (known || this.#names.size >= this.max) return { name: '', parse: true, key };
    const name = `remit_s${++made}`;
    this.#names.set(key, { name, ready: false });
    return { name, parse: true, key };
  }

  /** The answer to a call that sent `name`: parsed (ready from now on) or not (forgotten, tried again later). */
  settle(key: string, name: string, parsed: boolean): void {
    const entry = this.#names.get(key);
    if (!entry || entry.name !== name) return;
    if (parsed) entry.ready = true;
    else this.#names.delete(key);
  }
}

/** Each array type and its element type, as PGlite reads them when it opens. */
export const ARRAY_TYPES = `
  select b.oid, b.typarray from pg_catalog.pg_type a left join pg_catalog.pg_type b on b.oid = a.typelem
  where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`;

/**
 * Adds parsers for array types (`{a,b}` → ['a', 'b']) over their elements' parsers, as PGlite's own
 * instance has; a type that already has a parser (one kept as text) keeps it.
 */
export function addArrayParsers(parsers: Parsers, arrays: ReadonlyArray<{ oid: number; typarray: number }>): void {
  for (const { oid, typarray } of arrays) {
    if (parsers[typarray]) continue;
    const element = parsers[oid] ?? types.parsers[oid];
    parsers[typarray] = (x: string) => types.arrayParser(x, element!, typarray);
  }
}

/** Where a session's messages run: each call one message, answered with the database's bytes. */
export type RunMessage = (message: Uint8Array) => Promise<Uint8Array>;

/**
 * `query` and `exec` over a session's messages, with its statements named once parsed. `run` is
 * the session's (or, in a transaction, the transaction's) way to the database.
 */
export function wireQueries(names: StatementNames, parsers: Parsers) {
  /** The answer's result sets, or its error (with the statement, as PGlite's own errors carry it). */
  const resultsOf = (answer: Answer, options: QueryOptions | undefined, query: string, params?: readonly unknown[]) => {
    if (answer.error) throw Object.assign(answer.error, { query, params, queryOptions: options });
    return answer.results;
  };
  return {
    async query<T>(
      run: RunMessage,
      text: string,
      params: readonly unknown[] = [],
      options?: QueryOptions,
    ): Promise<Results<T>> {
      const statement = names.take(text, options?.paramTypes);
      const answer = readAnswer(
        await run(queryMessage(text, params.map(paramText), statement, options?.paramTypes)),
        parsers,
        options,
      );
      if (statement.name && statement.parse) names.settle(statement.key, statement.name, answer.parsed);
      // A name the database no longer knows (26000) is forgotten, so the next call parses it again.
      if (statement.name && !statement.parse && answer.error?.code === '26000')
        names.settle(statement.key, statement.name, false);
      return resultsOf(answer, options, text, params)[0] as Results<T>;
    },
    async exec(run: RunMessage, text: string, options?: QueryOptions): Promise<Results[]> {
      return resultsOf(readAnswer(await run(execMessage(text)), parsers, options), options, text);
    },
  };
}
