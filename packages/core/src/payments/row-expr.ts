import { sql, type SQL } from 'drizzle-orm';
import { transactions } from '../db/schema.js';
import { amountNumber, applyRate } from '../money.js';

/**
 * Rules over a transaction row, written once and read two ways: `eval` checks a row TypeScript
 * holds (the locked row of a refusal, a row just written), `sql` is the same rule as SQL over the
 * row's columns, for the guarded statements that enforce it. Nothing here knows a money rule; the
 * rules are in rules.ts, fees.ts, settlement.ts and payloads.ts.
 *
 * The TypeScript side is compiled, not interpreted: each node writes itself as JS source (`js`) and
 * `compile` turns a whole rule into one function, once (rules compile at module load), so a call
 * costs what the hand-written check did.
 *
 * Times are compared as milliseconds. A nullable column is only usable through `coalesce`, so a
 * rule has no SQL null to read differently from TypeScript.
 *
 * @example
 *   const open = and(eq(col.text('type'), lit.text('PreAuth')), le(param.cents('cents'), col.cents('amountCents')));
 *   open.eval(row, { cents: 500 });       // true or false (compiled on first use)
 *   const isOpen = compile(open);         // (row, v) => boolean: one plain function, compiled once
 *   open.sql('o');                        // (o.type = $1 and $2::bigint <= o.amount_cents)
 *   open.sql(undefined, { cents: 500 });  // the same with the value bound (a statement built per call)
 */

export type TxnRow = typeof transactions.$inferSelect;

/** Parameter values by name: placeholders of a prepared statement, or bound values. */
export type Values = Readonly<Record<string, unknown>>;

export interface Expr<T> {
  /** The rule on a row TypeScript holds (compiled on first use; hot callers hold `compile(rule)`). */
  eval(row: TxnRow, v: Values): T;
  /**
   * The rule as SQL over the row's columns (qualified by `alias` when given); parameters are
   * placeholders, or bound from `values` when given.
   */
  sql(alias?: string, values?: Values): SQL;
  /** The rule as a JS expression over `row` and `v`; values it needs from outside go through `env`. */
  js(env: Env): string;
}

/**
 * What a node's source is written with: `of` writes a sub-rule (a sub-rule used more than once in
 * a compiled function is computed once, into a local, before the result), `ref` names an outside
 * value (a helper, a set) for the source.
 */
export interface Env {
  of(e: Expr<unknown>): string;
  ref(value: unknown): string;
  /** The value of parameter `name`: an argument of the compiled function, or read from `v`. */
  param(name: string): string;
}

/** A rule as one plain function of the row and the values, compiled from its source once. */
export type Compiled<T> = (row: TxnRow, v: Values) => T;

/** A parameter's value; a missing one is a programming error, not a value to compare. */
function given(v: Values, name: string): unknown {
  const value = v[name];
  if (value === undefined && !(name in v)) throw new Error(`No value for rule parameter "${name}"`);
  return value;
}

/** The source of a function of the row and then `args` (the named parameters, in order) or else `v`. */
function compileSource(
  roots: Expr<unknown>[],
  result: (parts: string[]) => string,
  args?: readonly string[],
): (row: TxnRow, ...rest: never[]) => unknown {
  const uses = new Map<Expr<unknown>, number>();
  const counting: Env = {
    of(e) {
      const n = uses.get(e) ?? 0;
      uses.set(e, n + 1);
      if (n === 0) e.js(counting);
      return '';
    },
    ref: () => '',
    param: () => '',
  };
  for (const e of roots) counting.of(e);

  const refs: unknown[] = [];
  const locals = new Map<Expr<unknown>, string>();
  const lines: string[] = [];
  const env: Env = {
    of(e) {
      if ((uses.get(e) ?? 0) < 2) return e.js(env);
      let name = locals.get(e);
      if (name === undefined) {
        const source = e.js(env);
        name = `t${locals.size}`;
        locals.set(e, name);
        lines.push(`const ${name} = ${source};`);
      }
      return name;
    },
    ref(value) {
      const at = refs.indexOf(value);
      return `$${at >= 0 ? at : refs.push(value) - 1}`;
    },
    param(name) {
      if (!args) return `${env.ref(given)}(v, ${JSON.stringify(name)})`;
      const at = args.indexOf(name);
      if (at < 0) throw new Error(`No argument for rule parameter "${name}"`);
      return `a${at}`;
    },
  };
  const body = result(roots.map((e) => env.of(e)));
  const names = refs.map((_, i) => `$${i}`);
  // The source is made of this module's own nodes; column names, parameter names and constants
  // are written as JSON literals, so no text from a request reaches it.
  const make = new Function(
    ...names,
    `"use strict"; return function rule(row, ${args ? args.map((_, i) => `a${i}`).join(', ') : 'v'}) { ${lines.join(' ')} return ${body}; };`,
  );
  return make(...refs) as (row: TxnRow, ...rest: never[]) => unknown;
}

/** `rule` as one function: no walk of the expression tree per call. */
export const compile = <T>(rule: Expr<T>): Compiled<T> => compileSource([rule], ([only]) => only!) as Compiled<T>;

/**
 * `rule` as a function of the row and its parameters as arguments, in the order of `args`: no
 * values object to build per call, for the rules checked in loops.
 * @example compileWith<boolean, [cutoff: Date]>(settledBy, ['cutoff'])(row, cutoff)
 */
export const compileWith = <T, A extends unknown[]>(rule: Expr<T>, args: readonly string[]) =>
  compileSource([rule], ([only]) => only!, args) as unknown as (row: TxnRow, ...a: A) => T;

/** Several rules over the same row as one function returning the object of their values (a payload). */
export function compileFields<T>(fields: { readonly [K in keyof T]: Expr<T[K]> }): Compiled<T>;
export function compileFields<T, A extends unknown[]>(
  fields: { readonly [K in keyof T]: Expr<T[K]> },
  args: readonly string[],
): (row: TxnRow, ...a: A) => T;
export function compileFields<T>(fields: { readonly [K in keyof T]: Expr<T[K]> }, args?: readonly string[]) {
  const keys = Object.keys(fields) as (keyof T & string)[];
  return compileSource(
    keys.map((k) => fields[k]),
    (parts) => `({ ${keys.map((k, i) => `${JSON.stringify(k)}: ${parts[i]}`).join(', ')} })`,
    args,
  );
}

const expr = <T>(js: Expr<T>['js'], sqlFn: Expr<T>['sql']): Expr<T> => {
  let compiled: Compiled<T> | undefined;
  const e: Expr<T> = {
    eval: (row, v) => (compiled ??= compile(e))(row, v),
    sql: sqlFn,
    js,
  };
  return e;
};

const FALSE = expr<boolean>(
  () => 'false',
  () => sql`false`,
);

type Columns = typeof transactions._.columns;
type KeyOf<T> = { [K in keyof TxnRow]: TxnRow[K] extends T ? K : never }[keyof TxnRow];

const columnSql = (key: keyof Columns) => {
  const name = transactions[key].name;
  return (alias?: string) => sql.raw(alias ? `${alias}.${name}` : name);
};

/** A column read as `read` (JS source over the property access) makes of it. */
const column = <T>(key: keyof TxnRow & keyof Columns, read: (access: string) => string = (a) => a): Expr<T> =>
  expr(() => read(`row[${JSON.stringify(key)}]`), columnSql(key));

/** Columns of the row, by their TypeScript names. */
export const col = {
  cents: <K extends KeyOf<number>>(key: K) => column<number>(key),
  centsOrNull: <K extends KeyOf<number | null>>(key: K) => column<number | null>(key),
  int: <K extends KeyOf<number>>(key: K) => column<number>(key),
  text: <K extends KeyOf<string>>(key: K) => column<string>(key),
  textOrNull: <K extends KeyOf<string | null>>(key: K) => column<string | null>(key),
  bool: <K extends KeyOf<boolean>>(key: K) => column<boolean>(key),
  at: <K extends KeyOf<Date>>(key: K) => column<number>(key, (a) => `${a}.getTime()`),
  atOrNull: <K extends KeyOf<Date | null>>(key: K) =>
    column<number | null>(key, (a) => `(${a} === null ? null : ${a}.getTime())`),
};

const placeholderOr = (name: string, cast: string, values?: Values) =>
  values ? sql`${values[name]}${sql.raw(`::${cast}`)}` : sql`${sql.placeholder(name)}${sql.raw(`::${cast}`)}`;

const parameter = <T>(name: string, cast: string, read: (v: unknown) => T): Expr<T> =>
  expr(
    (env) => `${env.ref(read)}(${env.param(name)})`,
    (_alias, values) => placeholderOr(name, cast, values),
  );

/** A time given as a Date or as ISO text (what a statement binds). */
const toMs = (v: unknown) => (v instanceof Date ? v.getTime() : Date.parse(String(v)));

/** Values given per call, by name. */
export const param = {
  cents: (name: string) => parameter(name, 'bigint', Number),
  int: (name: string) => parameter(name, 'int', Number),
  text: (name: string) => parameter(name, 'text', String),
  at: (name: string) => parameter(name, 'timestamptz', toMs),
};

/** A constant as SQL text: the rule's own value, never input, so it is written into the statement. */
const literal = (value: string | number, cast: string) => {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error(`not an integer constant: ${value}`);
  const text = typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
  return sql.raw(`${text}::${cast}`);
};

const constant = <T extends string | number>(value: T, cast: string): Expr<T> =>
  expr(
    () => JSON.stringify(value),
    () => literal(value, cast),
  );

/** Constants of a rule. */
export const lit = {
  cents: (n: number) => constant(n, 'bigint'),
  smallint: (n: number) => constant(n, 'smallint'),
  text: (s: string) => constant(s, 'text'),
};

/** A binary operator: `op` in SQL, `jsOp` in JS. */
const binary =
  <A, B, T>(op: string, jsOp: string) =>
  (a: Expr<A>, b: Expr<B>): Expr<T> =>
    expr(
      (env) => `(${env.of(a)} ${jsOp} ${env.of(b)})`,
      (al, vs) => sql`(${a.sql(al, vs)} ${sql.raw(op)} ${b.sql(al, vs)})`,
    );

export const eq = binary<unknown, unknown, boolean>('=', '===');
export const ne = binary<unknown, unknown, boolean>('<>', '!==');
export const lt = binary<number, number, boolean>('<', '<');
export const le = binary<number, number, boolean>('<=', '<=');
export const gt = binary<number, number, boolean>('>', '>');
export const add = binary<number, number, number>('+', '+');
export const sub = binary<number, number, number>('-', '-');

export const neg = (a: Expr<number>): Expr<number> =>
  expr(
    (env) => `(-${env.of(a)})`,
    (al, vs) => sql`(-${a.sql(al, vs)})`,
  );

const many = (op: 'and' | 'or', items: Expr<boolean>[]): Expr<boolean> => {
  if (items.length === 1) return items[0]!;
  return expr(
    (env) =>
      items.length === 0
        ? String(op === 'and')
        : `(${items.map((e) => env.of(e)).join(op === 'and' ? ' && ' : ' || ')})`,
    (al, vs) =>
      sql`(${sql.join(
        items.map((e) => e.sql(al, vs)),
        sql.raw(` ${op} `),
      )})`,
  );
};
export const and = (...items: Expr<boolean>[]) => many('and', items);
export const or = (...items: Expr<boolean>[]) => many('or', items);
const negated = new WeakMap<Expr<boolean>, Expr<boolean>>();
/** The negation; `not(not(a))` is `a`. */
export const not = (a: Expr<boolean>): Expr<boolean> => {
  const inner = negated.get(a);
  if (inner) return inner;
  const n = expr<boolean>(
    (env) => `(!${env.of(a)})`,
    (al, vs) => sql`(not ${a.sql(al, vs)})`,
  );
  negated.set(n, a);
  return n;
};

/** `a` unless it is null, then `b`. */
export const coalesce = <T>(a: Expr<T | null>, b: Expr<T>): Expr<T> =>
  expr(
    (env) => `(${env.of(a)} ?? ${env.of(b)})`,
    (al, vs) => sql`coalesce(${a.sql(al, vs)}, ${b.sql(al, vs)})`,
  );

/** `then` when `cond` holds, else `otherwise`. */
export const when = <T>(cond: Expr<boolean>, then: Expr<T>, otherwise: Expr<T>): Expr<T> =>
  expr(
    (env) => `(${env.of(cond)} ? ${env.of(then)} : ${env.of(otherwise)})`,
    (al, vs) => sql`(case when ${cond.sql(al, vs)} then ${then.sql(al, vs)} else ${otherwise.sql(al, vs)} end)`,
  );

export const least = (a: Expr<number>, b: Expr<number>): Expr<number> =>
  expr(
    (env) => `Math.min(${env.of(a)}, ${env.of(b)})`,
    (al, vs) => sql`least(${a.sql(al, vs)}, ${b.sql(al, vs)})`,
  );

/** Whether `a` is one of `values` (`a = v` for one value). */
export const oneOf = <T extends string | number>(
  a: Expr<T>,
  values: readonly T[],
  cast: 'text' | 'smallint',
): Expr<boolean> => {
  if (values.length === 0) return FALSE;
  const set = new Set<unknown>(values);
  return expr(
    (env) =>
      values.length === 1 ? `(${env.of(a)} === ${JSON.stringify(values[0])})` : `${env.ref(set)}.has(${env.of(a)})`,
    (al, vs) => {
      const items = values.map((x) => literal(x, cast));
      return values.length === 1
        ? sql`(${a.sql(al, vs)} = ${items[0]})`
        : sql`(${a.sql(al, vs)} in (${sql.join(items, sql`, `)}))`;
    },
  );
};

/** `applyRate`: cents × rate (units of 1e-7 percent) rounded half up, exact in both (numeric in SQL). */
export const rated = (cents: Expr<number>, rateE7: Expr<number>): Expr<number> =>
  expr(
    (env) => `${env.ref(applyRate)}(${env.of(cents)}, ${env.of(rateE7)})`,
    (al, vs) => sql`div(${cents.sql(al, vs)}::numeric * ${rateE7.sql(al, vs)} + 500000000, 1000000000)::bigint`,
  );

/** Cents as the JSON number a payload shows (`amountNumber`): 1230 → 12.3. */
export const money = (cents: Expr<number>): Expr<number> =>
  expr(
    (env) => `${env.ref(amountNumber)}(${env.of(cents)})`,
    (al, vs) => sql`((${cents.sql(al, vs)}) / 100.0)::float8`,
  );
