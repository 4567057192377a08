import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from './schema.js';
import type { Db } from './queryable.js';
import { createPgPool, hostOf, type DatabaseEvent } from './pg-pool.js';

/**
 * Read replicas (DATABASE_REPLICA_URL): where lists, single reads, reports and portal views may
 * read. A reader (a client, a merchant) reads its own writes: after it wrote, a replica serves it
 * only once the replica has replayed the primary's WAL past a position taken after that write.
 * A replica lagging past `maxLagMs`, or not answering, is skipped (one line each way).
 */
export interface Replicas {
  /** The handle for a read by these readers: a replica that has their writes, else the primary. */
  forReaders(readers: ReadonlyArray<string | null | undefined>): Db;
  /** These readers just wrote (called once the write committed, before the answer goes out). */
  wrote(readers: ReadonlyArray<string | null | undefined>): void;
  /** Each replica's lag behind the primary in seconds (null: not answering). */
  lag(): Array<{ replica: string; seconds: number | null }>;
  /** Samples once now (tests, and the first use after start). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaOptions {
  urls: string[];
  primary: pg.Pool;
  primaryDb: Db;
  max: number;
  unnamedStatements: boolean;
  /** Past this lag a replica is skipped. */
  maxLagMs: number;
  /** How often the primary's and the replicas' WAL positions are sampled. */
  pollMs: number;
  onEvent?: (e: DatabaseEvent) => void;
  now?: () => number;
}

/** `X/Y` (an LSN) as one number. */
function lsn(text: string): bigint {
  const [hi, lo] = text.split('/');
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

/** Why a replica is skipped: not sampled yet (at start, said nowhere), lagging, or not answering. */
type SkipKind = 'unsampled' | 'lags' | 'gone';

interface Replica {
  name: string;
  pool: pg.Pool;
  db: Db;
  /** Every write acknowledged before this time (ms) is replayed here; -Infinity: not known yet. */
  caughtUpAt: number;
  /** Seconds behind the primary at the last sample; null when it did not answer. */
  lagSeconds: number | null;
  usable: boolean;
  /** Why it is skipped now, when it is (said once per change of kind, not per sample). */
  skipped: SkipKind | null;
}

export function openReplicas(opts: ReplicaOptions): Replicas {
  const now = opts.now ?? Date.now;
  const replicas: Replica[] = opts.urls.map((url) => {
    const name = hostOf(url);
    const pool = createPgPool({
      url,
      max: opts.max,
      writable: false,
      unnamedStatements: opts.unnamedStatements,
      label: `replica ${name}`,
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    return {
      name,
      pool,
      db,
      caughtUpAt: Number.NEGATIVE_INFINITY,
      lagSeconds: null,
      usable: false,
      skipped: 'unsampled',
    };
  });
  /** The primary's WAL position sampled at a time: every write acknowledged before `at` lies at or before `lsn`. */
  let samples: Array<{ at: number; lsn: bigint }> = [];
  const lastWrite = new Map<string, number>();
  let next = 0;

  const setSkipped = (r: Replica, kind: SkipKind | null, why = '') => {
    if (kind === r.skipped) return;
    const wasSampled = r.skipped !== 'unsampled';
    if (kind)
      opts.onEvent?.({ level: 'warn', message: `replica ${r.name} skipped: ${why}; its reads go to the primary` });
    else if (wasSampled) opts.onEvent?.({ level: 'info', message: `replica ${r.name} serves reads again` });
    r.skipped = kind;
    r.usable = kind === null;
  };

  const sampleReplica = async (r: Replica) => {
    try {
      const res = await r.pool.query('select pg_last_wal_replay_lsn()::text as lsn');
      const replayed = (res.rows[0] as { lsn: string | null }).lsn;
      // Not a standby (no replay position): treat as caught up to everything sampled.
      const at = replayed === null ? Number.POSITIVE_INFINITY : lsn(replayed);
      let caughtUpAt = Number.NEGATIVE_INFINITY;
      for (const s of samples) if (s.lsn <= at) caughtUpAt = Math.max(caughtUpAt, s.at);
      r.caughtUpAt = caughtUpAt;
      const latest = samples[samples.length - 1];
      const t = now();
      r.lagSeconds =
        latest && latest.lsn <= at
          ? 0
          : Math.max(0, (t - (Number.isFinite(caughtUpAt) ? caughtUpAt : (samples[0]?.at ?? t))) / 1000);
      if (r.lagSeconds * 1000 <= opts.maxLagMs) setSkipped(r, null);
      else
        setSkipped(
          r,
          'lags',
          `it lags ${r.lagSeconds.toFixed(1)} s behind the primary (more than REMIT_REPLICA_MAX_LAG_MS=${opts.maxLagMs})`,
        );
    } catch (e) {
      r.lagSeconds = null;
      setSkipped(r, 'gone', `it does not answer (${(e as Error).message})`);
    }
  };

  const refresh = async () => {
    const at = now();
    try {
      const res = await opts.primary.query('select pg_current_wal_lsn()::text as lsn');
      samples.push({ at, lsn: lsn((res.rows[0] as { lsn: string }).lsn) });
    } catch {
      // The primary is away: the replicas keep their last positions.
    }
    // Samples older than the lag bound cannot make a replica usable: dropped.
    const keepFrom = at - opts.maxLagMs - opts.pollMs;
    samples = samples.filter((s) => s.at >= keepFrom);
    for (const [reader, t] of lastWrite) if (t < keepFrom) lastWrite.delete(reader);
    await Promise.all(replicas.map(sampleReplica));
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const loop = () => {
    if (stopped) return;
    running = refresh().finally(() => {
      if (!stopped) timer = setTimeout(loop, opts.pollMs).unref();
    });
  };
  loop();

  return {
    forReaders(readers) {
      let since = Number.NEGATIVE_INFINITY;
      for (const r of readers) if (r) since = Math.max(since, lastWrite.get(r) ?? Number.NEGATIVE_INFINITY);
      for (let i = 0; i < replicas.length; i++) {
        const r = replicas[(next + i) % replicas.length]!;
        if (r.usable && r.caughtUpAt > since) {
          next = (next + i + 1) % replicas.length;
          return r.db;
        }
      }
      return opts.primaryDb;
    },
    wrote(readers) {
      const t = now();
      for (const r of readers) if (r) lastWrite.set(r, t);
    },
    lag: () => replicas.map((r) => ({ replica: r.name, seconds: r.lagSeconds })),
    refresh,
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => {});
      await Promise.all(replicas.map((r) => r.pool.end()));
    },
  };
}
