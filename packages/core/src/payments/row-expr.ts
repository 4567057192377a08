import { sql, type SQL } from 'drizzle-orm';
import { transactions } from '../db/schema.js';
import { amountNumber, applyRate } from '../money.js';

/**
 * Rules over a transaction row, written once and read two ways: `eval` checks a row TypeScript
 * holds (the locked row of a refusal, a row just written), `sql` is the same rule as SQL over the
 * row's columns, for the guarded statements that enforce it. Nothing here knows a money rule; the
 * rules are in rules.ts, fees.ts, settlement.ts and payloads.ts.
 *
 * Times are compared as milliseconds. A nullable column is only usable through `coalesce`, so a
 * rule has no SQL null to read differently from TypeScript.
 *
 * @example
 *   const open = and(eq(col.text('type'), lit.text('PreAuth')), le(param.cents('cents'), col.cents('amountCents')));
 *   open.eval(row, { cents: 500 });       // true or false
 *   open.sql('o');                        // (o.type = $1 and $2::bigint <= o.amount_cents)
 *   open.sql(undefined, { cents: 500 });  // the same with the value bound (a statement built per call)
 */

export type TxnRow = typeof transactions.$inferSelect;

/** Parameter values by name: placeholders of a prepared statement, or bound values. */
export type Values = Readonly<Record<string, unknown>>;

export interface Expr<T> {
  /** The rule on a row TypeScript holds. */
  eval(row: TxnRow, v: Values): T;
  /**
   * The rule as SQL over the row's columns (qualified by `alias` when given); parameters are
   * placeholders, or bound from `values` when given.
   */
  sql(alias?: string, values?: Values): SQL;
}

const expr = <T>(evalFn: Expr<T>['eval'], sqlFn: Expr<T>['sql']): Expr<T> => ({ eval: evalFn, sql: sqlFn });

type Columns = typeof transactions._.columns;
type KeyOf<T> = { [K in keyof TxnRow]: TxnRow[K] extends T ? K : never }[keyof TxnRow];

const columnSql = (key: keyof Columns) => {
  const name = transactions[key].name;
  return (alias?: string) => sql.raw(alias ? `${alias}.${name}` : name);
};

const column = <T, K extends keyof TxnRow & keyof Columns>(key: K, read: (v: TxnRow[K]) => T): Expr<T> =>
  expr((row) => read(row[key]), columnSql(key));

const ms = (d: Date | null) => (d === null ? null : d.getTime());

/** Columns of the row, by their TypeScript names. */
export const col = {
  cents: <K extends KeyOf<number>>(key: K) => column(key, (v) => v as number),
  centsOrNull: <K extends KeyOf<number | null>>(key: K) => column(key, (v) => v as number | null),
  int: <K extends KeyOf<number>>(key: K) => column(key, (v) => v as number),
  text: <K extends KeyOf<string>>(key: K) => column(key, (v) => v as string),
  textOrNull: <K extends KeyOf<string | null>>(key: K) => column(key, (v) => v as string | null),
  bool: <K extends KeyOf<boolean>>(key: K) => column(key, (v) => v as boolean),
  at: <K extends KeyOf<Date>>(key: K) => column(key, (v) => (v as Date).getTime()),
  atOrNull: <K extends KeyOf<Date | null>>(key: K) => column(key, (v) => ms(v as Date | null)),
};

const placeholderOr = (name: string, cast: string, values?: Values) =>
  values ? sql`${values[name]}${sql.raw(`::${cast}`)}` : sql`${sql.placeholder(name)}${sql.raw(`::${cast}`)}`;

const parameter = <T>(name: string, cast: string, read: (v: unknown) => T): Expr<T> =>
  expr(
    (_row, v) => {
      const given = v[name];
      if (given === undefined && !(name in v)) throw new Error(`No value for rule parameter "${name}"`);
      return read(given);
    },
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

const constant = <T extends string | number>(value: T, cast: string): Expr<T> => expr(() => value, () => literal(value, cast));

/** Constants of a rule. */
export const lit = {
  cents: (n: number) => constant(n, 'bigint'),
  smallint: (n: number) => constant(n, 'smallint'),
  text: (s: string) => constant(s, 'text'),
};

const binary = <A, B, T>(op: string, f: (a: A, b: B) => T) => (a: Expr<A>, b: Expr<B>): Expr<T> =>
  expr((row, v) => f(a.eval(row, v), b.eval(row, v)), (al, vs) => sql`(${a.sql(al, vs)} ${sql.raw(op)} ${b.sql(al, vs)})`);

export const eq = binary<unknown, unknown, boolean>('=', (a, b) => a === b);
export const ne = binary<unknown, unknown, boolean>('<>', (a, b) => a !== b);
export const lt = binary<number, number, boolean>('<', (a, b) => a < b);
export const le = binary<number, number, boolean>('<=', (a, b) => a <= b);
export const gt = binary<number, number, boolean>('>', (a, b) => a > b);
export const add = binary<number, number, number>('+', (a, b) => a + b);
export const sub = binary<number, number, number>('-', (a, b) => a - b);

export const neg = (a: Expr<number>): Expr<number> => expr((row, v) => -a.eval(row, v), (al, vs) => sql`(-${a.sql(al, vs)})`);

const many = (op: 'and' | 'or', items: Expr<boolean>[]): Expr<boolean> => {
  if (items.length === 1) return items[0]!;
  return expr(
    op === 'and'
      ? (row, v) => {
          for (const e of items) if (!e.eval(row, v)) return false;
          return true;
        }
      : (row, v) => {
          for (const e of items) if (e.eval(row, v)) return true;
          return false;
        },
    (al, vs) => sql`(${sql.join(items.map((e) => e.sql(al, vs)), sql.raw(` ${op} `))})`,
  );
};
export const and = (...items: Expr<boolean>[]) => many('and', items);
export const or = (...items: Expr<boolean>[]) => many('or', items);
const negated = new WeakMap<Expr<boolean>, Expr<boolean>>();
/** The negation; `not(not(a))` is `a`. */
export const not = (a: Expr<boolean>): Expr<boolean> => {
  const inner = negated.get(a);
  if (inner) return inner;
  const n = expr<boolean>((row, v) => !a.eval(row, v), (al, vs) => sql`(not ${a.sql(al, vs)})`);
  negated.set(n, a);
  return n;
};

/** `a` unless it is null, then `b`. */
export const coalesce = <T>(a: Expr<T | null>, b: Expr<T>): Expr<T> =>
  expr((row, v) => a.eval(row, v) ?? b.eval(row, v), (al, vs) => sql`coalesce(${a.sql(al, vs)}, ${b.sql(al, vs)})`);

/** `then` when `cond` holds, else `otherwise`. */
export const when = <T>(cond: Expr<boolean>, then: Expr<T>, otherwise: Expr<T>): Expr<T> =>
  expr(
    (row, v) => (cond.eval(row, v) ? then.eval(row, v) : otherwise.eval(row, v)),
    (al, vs) => sql`(case when ${cond.sql(al, vs)} then ${then.sql(al, vs)} else ${otherwise.sql(al, vs)} end)`,
  );

export const least = (a: Expr<number>, b: Expr<number>): Expr<number> =>
  expr((row, v) => Math.min(a.eval(row, v), b.eval(row, v)), (al, vs) => sql`least(${a.sql(al, vs)}, ${b.sql(al, vs)})`);

/** Whether `a` is one of `values` (`a = v` for one value). */
export const oneOf = <T extends string | number>(a: Expr<T>, values: readonly T[], cast: 'text' | 'smallint'): Expr<boolean> => {
  if (values.length === 0) return expr(() => false, () => sql`false`);
  const set = new Set<unknown>(values);
  return expr(
    (row, v) => set.has(a.eval(row, v)),
    (al, vs) => {
      const items = values.map((x) => literal(x, cast));
      return values.length === 1 ? sql`(${a.sql(al, vs)} = ${items[0]})` : sql`(${a.sql(al, vs)} in (${sql.join(items, sql`, `)}))`;
    },
  );
};

/** `applyRate`: cents × rate (units of 1e-7 percent) rounded half up, exact in both (numeric in SQL). */
export const rated = (cents: Expr<number>, rateE7: Expr<number>): Expr<number> =>
  expr(
    (row, v) => applyRate(cents.eval(row, v), rateE7.eval(row, v)),
    (al, vs) => sql`div(${cents.sql(al, vs)}::numeric * ${rateE7.sql(al, vs)} + 500000000, 1000000000)::bigint`,
  );

/** Cents as the JSON number a payload shows (`amountNumber`): 1230 → 12.3. */
export const money = (cents: Expr<number>): Expr<number> =>
  expr((row, v) => amountNumber(cents.eval(row, v)), (al, vs) => sql`((${cents.sql(al, vs)}) / 100.0)::float8`);
