import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { percentile, type Figures } from './stats.js';

export interface Statement {
  query: string;
  params: unknown[];
}

/** Records every statement an operation runs, through the core's Drizzle logger. */
export class SqlRecorder {
  recording = false;
  statements: Statement[] = [];
  logQuery(query: string, params: unknown[]) {
    if (this.recording) this.statements.push({ query, params: [...params] });
  }
  async record(run: () => Promise<unknown>): Promise<Statement[]> {
    this.statements = [];
    this.recording = true;
    try {
      await run();
    } finally {
      this.recording = false;
    }
    return this.statements;
  }
}

const ID = /^(txn|ord|evt|msg|pm|gw)_[0-9A-Za-z]+$/;

/** Fresh ids per run, the same within one run, so primary keys never collide. */
function freshParams(statements: Statement[]): unknown[][] {
  const map = new Map<string, string>();
  return statements.map((s) =>
    s.params.map((p) => {
      if (typeof p !== 'string' || !ID.test(p)) return p;
      let fresh = map.get(p);
      if (!fresh) {
        fresh = `${p.slice(0, p.indexOf('_'))}_${randomBytes(12).toString('base64url')}`;
        map.set(p, fresh);
      }
      return fresh;
    }),
  );
}

export interface Driver {
  runTransaction(statements: Statement[], params: unknown[][]): Promise<void>;
  close(): Promise<void>;
}

export function pgDriver(url: string, poolSize = 20): Driver {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  return {
    async runTransaction(statements, params) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        for (let i = 0; i < statements.length; i++) await c.query(statements[i]!.query, params[i]);
        await c.query('COMMIT');
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

export function pgliteDriver(db: PGlite): Driver {
  return {
    async runTransaction(statements, params) {
      await db.transaction(async (tx) => {
        for (let i = 0; i < statements.length; i++) await tx.query(statements[i]!.query, params[i]);
      });
    },
    close: () => db.close(),
  };
}

/**
 * Replays recorded statements with `concurrency` workers for `seconds`: the write ceiling. Worker i
 * replays recording i (mod their number), so operations recorded on distinct rows stay distinct.
 */
export async function replay(driver: Driver, recordings: Statement[][], concurrency: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const statements = recordings[worker % recordings.length]!;
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await driver.runTransaction(statements, freshParams(statements));
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}
