/**
 * The ceiling of a route: the statements one request sent, recorded at the driver (BEGIN and
 * COMMIT included, in order, with their parameters), replayed through the driver with no HTTP.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { Coalescer, type Database } from '@remit/core';
import { percentile, type Figures } from './stats.js';

export interface Statement {
  query: string;
  params: unknown[];
  /** A named prepared statement (Postgres): replayed by name, so it is parsed and planned once per connection as in the server. */
  name?: string;
}

/**
 * One request's statements as it sent them: a transaction (on one connection, in order) or a group
 * sent at once outside any transaction (`Promise.all` in the code: on Postgres, on several clients).
 */
export type Step = { kind: 'tx' | 'group'; statements: Statement[] };
export type Recording = Step[];

const TX_START = /^\s*begin\b/i;
const TX_END = /^\s*(commit|rollback)\b/i;

/**
 * Records an operation's statements: the driver's hook (`onStatement`: order, BEGIN/COMMIT, and
 * when each one's answer came) joined with Drizzle's logger (the parameters). Statements outside a
 * transaction were sent at once when one was sent before the answer to another of its group came
 * (`Promise.all` in the code); one sent after every answer of the group is a step of its own.
 */
export class SqlRecorder {
  /** The operation being recorded: only statements sent from its async context count (not a timer's meanwhile, as PGlite's upkeep). */
  readonly #operation = new AsyncLocalStorage<object>();
  /** The recording under way (its context's value), undefined between recordings. */
  #recording: object | undefined;
  #sent: Array<{ text: string; name?: string; sentAt: number; answeredAt: number }> = [];
  #logged: Statement[] = [];
  /** Counts sends and answers, in the order they happened. */
  #clock = 0;

  /** Whether a statement sent now is the recorded operation's. */
  #ours(): boolean {
    return this.#recording !== undefined && this.#operation.getStore() === this.#recording;
  }

  logQuery(query: string, params: unknown[]) {
    if (this.#ours()) this.#logged.push({ query, params: [...params] });
  }

  readonly onStatement = (text: string, name?: string) => {
    if (!this.#ours()) return;
    const entry = { text, name, sentAt: ++this.#clock, answeredAt: Infinity };
    this.#sent.push(entry);
    return () => {
      entry.answeredAt = Math.min(entry.answeredAt, ++this.#clock);
    };
  };

  async record(run: () => Promise<unknown>): Promise<Recording> {
    this.#sent = [];
    this.#logged = [];
    const recording = (this.#recording = {});
    try {
      await this.#operation.run(recording, run);
    } finally {
      this.#recording = undefined;
    }
    return this.#steps();
  }

  #steps(): Recording {
    let cursor = 0;
    const withParams = this.#sent.map(({ text, name, sentAt, answeredAt }) => {
      const at = this.#logged.findIndex((l, i) => i >= cursor && l.query === text);
      if (at >= 0) cursor = at + 1;
      const params = at >= 0 ? this.#logged[at]!.params : [];
      if (at < 0 && /\$\d/.test(text)) throw new Error(`bench: no parameters recorded for ${text.slice(0, 80)}`);
      return { statement: { query: text, params, ...(name ? { name } : {}) }, sentAt, answeredAt };
    });
    const steps: Recording = [];
    let tx: Statement[] | null = null;
    /** The latest answer among the open group's statements. */
    let groupAnswered = -Infinity;
    for (const { statement, sentAt, answeredAt } of withParams) {
      if (tx) {
        if (TX_END.test(statement.query)) {
          steps.push({ kind: 'tx', statements: tx });
          tx = null;
        } else tx.push(statement);
        groupAnswered = -Infinity;
      } else if (TX_START.test(statement.query)) {
        tx = [];
        groupAnswered = -Infinity;
      } else if (steps.at(-1)?.kind === 'group' && sentAt < groupAnswered) {
        steps.at(-1)!.statements.push(statement);
        groupAnswered = Math.max(groupAnswered, answeredAt);
      } else {
        steps.push({ kind: 'group', statements: [statement] });
        groupAnswered = answeredAt;
      }
    }
    return steps;
  }
}

export const describeRecording = (r: Recording) =>
  r
    .map((s) =>
      s.kind === 'tx'
        ? `BEGIN + ${s.statements.length} + COMMIT`
        : s.statements.length > 1
          ? `${s.statements.length} at once`
          : '1',
    )
    .join(', ');

export const statementCount = (r: Recording) =>
  r.reduce((n, s) => n + s.statements.length + (s.kind === 'tx' ? 2 : 0), 0);

export interface Driver {
  kind: 'pglite' | 'postgres';
  run(step: Step, params: unknown[][]): Promise<Array<Record<string, unknown>>[]>;
  close(): Promise<void>;
}

/** The server's own pool size (20), so the ceiling has the connections the server has. */
export function pgDriver(url: string, poolSize = 20): Driver {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const config = (s: Statement, values: unknown[] | undefined) =>
    s.name ? { name: s.name, text: s.query, values } : { text: s.query, values };
  return {
    kind: 'postgres',
    async run(step, params) {
      if (step.kind === 'group')
        return Promise.all(step.statements.map(async (s, i) => (await pool.query(config(s, params[i]))).rows));
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const out = [];
        for (let i = 0; i < step.statements.length; i++)
          out.push((await c.query(config(step.statements[i]!, params[i]))).rows);
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The server's own PGlite client of a database `connectDatabase` opened (PGlite on its thread,
 * driven by the wire protocol). PGlite is one connection: a group's statements queue behind one
 * another there, as in the server.
 */
export function pgliteDriver(database: Database, close: () => Promise<void>): Driver {
  const db = (database.db as unknown as { $client: PGlite }).$client;
  type Q = Pick<PGlite, 'query'>;
  const all = async (q: Q, step: Step, params: unknown[][]) => {
    const out = [];
    for (let i = 0; i < step.statements.length; i++)
      out.push((await q.query<Record<string, unknown>>(step.statements[i]!.query, params[i])).rows);
    return out;
  };
  return {
    kind: 'pglite',
    run: (step, params) => (step.kind === 'tx' ? db.transaction((tx) => all(tx, step, params)) : all(db, step, params)),
    close,
  };
}

const ID = /^(txn|ord|evt|msg|pm|gw)_[0-9A-Za-z]+$/;

export interface ReplayOptions {
  /** Ids of rows that existed before the recorded request (what it read or changed): replayed as they are. */
  keep: Set<string>;
  /** Recordings each worker replays in turn (worker w: the w-th run of this many); default 1. */
  cycle?: number;
  /** A row the request consumes (a void's original): each replay takes the next one; none left ends the run. */
  consume?: { id: string; next(): string | undefined };
}

/**
 * The parameters for one replay: ids the request created are fresh each time (so primary keys
 * never collide), the same within one request; ids of rows that existed are kept.
 */
export function freshParams(r: Recording, o: ReplayOptions): unknown[][] | null {
  const map = new Map<string, string>();
  if (o.consume) {
    const next = o.consume.next();
    if (!next) return null;
    map.set(o.consume.id, next);
  }
  return r.flatMap((step) =>
    step.statements.map((s) =>
      s.params.map((p) => {
        if (typeof p !== 'string') return p;
        if (map.has(p)) return map.get(p);
        if (o.keep.has(p)) return p;
        if (!ID.test(p)) return p;
        const fresh = `${p.slice(0, p.indexOf('_'))}_${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;
        map.set(p, fresh);
        return fresh;
      }),
    ),
  );
}

/**
 * The API limiter's count (`with clock as …`, one row per client): the server joins a client's
 * concurrent counts into one statement while one is in flight (core's Coalescer), so the replay
 * joins its workers' in the same way; each statement is sent as recorded.
 */
const JOINED = /^\s*with clock as/i;
type Rows = Array<Record<string, unknown>>[];

/** Runs one recording; with `joined`, a step that is the limiter's count joins the one in flight. */
export async function runRecording(driver: Driver, r: Recording, params: unknown[][], joined?: Coalescer<Rows>) {
  let at = 0;
  for (const step of r) {
    const values = params.slice(at, at + step.statements.length);
    const first = step.statements[0]!;
    if (joined && step.kind === 'group' && step.statements.length === 1 && JOINED.test(first.query)) {
      await joined.call(`${first.name ?? first.query}\u0000${JSON.stringify(values)}`, async (n) =>
        Array<Rows>(n).fill(await driver.run(step, values)),
      );
    } else await driver.run(step, values);
    at += step.statements.length;
  }
}

/**
 * Replays recorded requests with `concurrency` workers for `seconds`. Worker i replays recording
 * i (mod their number; with `cycle` c, recordings ci … ci+c-1 in turn), so requests recorded on
 * distinct rows stay on distinct rows.
 */
export async function replay(
  driver: Driver,
  recordings: Recording[],
  concurrency: number,
  seconds: number,
  opts: ReplayOptions,
): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: unknown;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const end = start + seconds * 1000;
  const joined = new Coalescer<Rows>();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const cycle = opts.cycle ?? 1;
      for (let turn = 0; performance.now() < end; turn++) {
        const r = recordings[(worker * cycle + (turn % cycle)) % recordings.length]!;
        const params = freshParams(r, opts);
        if (!params) return;
        const t0 = performance.now();
        try {
          await runRecording(driver, r, params, joined);
          latencies.push(performance.now() - t0);
        } catch (e) {
          firstError ??= e;
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (firstError)
    console.warn(
      `  (replay: ${errors} errors, first: ${String((firstError as Error).message ?? firstError).slice(0, 160)})`,
    );
  latencies.sort((a, b) => a - b);
  const count = latencies.length;
  return {
    rps: count / elapsed,
    count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    cpuUs: count ? (cpu.user + cpu.system) / count : undefined,
  };
}
