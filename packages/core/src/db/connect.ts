import { claimDataDir, restrictDataDir } from './data-dir.js';
import { fileURLToPath } from 'node:url';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';
import type { Db } from './queryable.js';
import type { DatabaseImage } from './database-image.js';
import { compiledPglite } from './pglite-module.js';
import { PGliteThread } from './pglite-thread.js';
import { DRIZZLE_TEXT_TYPES, textParsers } from './date-types.js';
import { createPgPool, type DatabaseEvent } from './pg-pool.js';
import { openReplicas, type Replicas } from './replicas.js';

export type { Db, Tx, Queryable } from './queryable.js';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Postgres: the pool's connections now (PGlite has one, in this process). */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
  /** Postgres with DATABASE_REPLICA_URL: where reads that may lag go (replicas.ts). */
  replicas?: Replicas;
  close(): Promise<void>;
}

/** The SQL migrations applied at start (and by `readiness` compared with what the database has). */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface ConnectOptions {
  /** `postgres://…` to use Postgres; otherwise embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string;
  /** Postgres pool size. */
  poolSize?: number;
  /**
   * Postgres: a direct connection (no pooler) for what needs a session: the migrations. Set, it
   * also says `databaseUrl` is a transaction pooler (PgBouncer), so statements go unnamed.
   */
  directUrl?: string;
  /** Postgres: read replicas (docs/scaling.md). */
  replicaUrls?: string[];
  /** Past this lag (ms) a replica is skipped; default 10 s. */
  replicaMaxLagMs?: number;
  /** How often replicas' positions are sampled (ms); default 500. */
  replicaPollMs?: number;
  /** Postgres: told when the database is lost and back, and when a replica is skipped or used again. */
  onDatabaseEvent?: (e: DatabaseEvent) => void;
  /** Sees every statement (the benchmark records an endpoint's SQL with it). */
  logger?: { logQuery(query: string, params: unknown[]): void };
  /**
   * Sees every statement as the driver sends it, BEGIN and COMMIT included: one call per round
   * trip (a test counts each route's round trips with it). `name`: a prepared statement's name on
   * Postgres (the bench replays it by name, as the server sends it). It may return a function:
   * called when the statement's answer came (or it failed), before the code that sent it runs on,
   * so a statement sent before another's answer came was sent at once with it.
   */
  onStatement?: (text: string, name?: string) => void | Answered;
  /**
   * PGlite: run the database on a worker thread (the default), so that it and the HTTP work each
   * have a core; false keeps it on the calling thread.
   */
  pgliteThread?: boolean;
  /** PGlite on its thread: told if that thread stops while the database is open (every query fails from then on). */
  onDatabaseLost?: (e: Error) => void;
  /**
   * PGlite in memory: start from this image of a data directory (`dumpDataDir`, an uncompressed tar)
   * instead of running initdb; the migrations it lacks are applied as usual. The test kit's sandboxes
   * start from one already migrated (docs/testing.md).
   */
  image?: DatabaseImage;
  /** PGlite: server settings added to its start parameters (`-c name=value`), e.g. a smaller `shared_buffers` for a test's database. */
  pgliteSettings?: Record<string, string>;
}

/** PGlite's start parameters with `settings` added (PGlite takes the whole list or none). */
export function pgliteStartParams(settings: Record<string, string> | undefined): string[] | undefined {
  if (!settings) return undefined;
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

export type { DatabaseImage };

/** One Blob per image, for every database started from it (a Blob copies its bytes, and PGlite keeps it). */
const blobs = new WeakMap<Uint8Array, Blob>();
function imageBlob(tar: Uint8Array): Blob {
  let blob = blobs.get(tar);
  if (!blob) blobs.set(tar, (blob = new Blob([tar as Uint8Array<ArrayBuffer>])));
  return blob;
}

/** `onStatement`'s optional return: told when the statement's answer came. */
export type Answered = () => void;

/**
 * The result parsers Drizzle hands PGlite with every query (it maps dates itself): leave dates,
 * intervals and their arrays as text. PGlite merges a query's parsers over its whole type table on
 * every call (a cost in docs/benchmarks.md, "What the profiles found"), so they are set once on the instance instead.
 */
const DRIZZLE_PARSERS = textParsers(DRIZZLE_TEXT_TYPES);

/** What connect.ts and Drizzle use of a PGlite: an in-process one or its stand-in for a worker's. */
type PGliteLike = Pick<PGlite, 'query' | 'exec' | 'transaction' | 'close'>;

/** Calls `answered` (if any) when `p` settles, ahead of the code awaiting `p` (registered first). */
function whenAnswered<T>(p: Promise<T>, answered: void | Answered): Promise<T> {
  if (typeof answered === 'function') p.then(answered, answered);
  return p;
}
const noop = () => {};

/**
 * Drops the per-query `parsers` Drizzle passes (the instance has the same ones), in transactions
 * too; shows `onStatement` every statement, with the BEGIN and COMMIT PGlite sends itself (and the
 * statement's end).
 */
function parsersOnceOnly(client: PGliteLike, onStatement: ConnectOptions['onStatement'] = noop) {
  /** Shows a statement sent; `run` sends it. */
  const sent = <T>(text: string, run: () => Promise<T>): Promise<T> => {
    const answered = onStatement(text);
    return whenAnswered(run(), answered);
  };
  const strip = (q: PGliteLike | Transaction) => {
    const query = q.query.bind(q) as PGlite['query'];
    q.query = ((text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) =>
      sent(text, () =>
        query(text, params, options?.parsers ? { ...options, parsers: undefined } : options),
      )) as PGlite['query'];
    const exec = q.exec.bind(q) as PGlite['exec'];
    q.exec = ((text: string, options?: Parameters<PGlite['exec']>[1]) =>
      sent(text, () => exec(text, options))) as PGlite['exec'];
  };
  strip(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (async (run: (tx: Transaction) => Promise<unknown>) => {
    const told = onStatement('BEGIN');
    let begun = typeof told === 'function' ? told : noop;
    const answered = () => {
      begun();
      begun = noop;
    };
    let ok = false;
    try {
      const result = await transaction((tx) => {
        answered();
        strip(tx);
        return run(tx);
      });
      ok = true;
      return result;
    } finally {
      answered();
      // Shown once PGlite has ended the transaction: sent and answered.
      const ended = onStatement(ok ? 'COMMIT' : 'ROLLBACK');
      if (typeof ended === 'function') ended();
    }
  }) as PGlite['transaction'];
}

/**
 * Migrations hold a session (drizzle's migration lock and table): through a transaction pooler they
 * go over `directUrl`, a connection of their own closed after.
 */
async function migrateDirect(directUrl: string | undefined, db: ReturnType<typeof drizzlePg>) {
  if (!directUrl) return migratePg(db, { migrationsFolder });
  const direct = new pg.Client({ connectionString: directUrl });
  direct.on('error', () => {});
  await direct.connect();
  try {
    await migratePg(drizzlePg(direct, { schema }), { migrationsFolder });
  } finally {
    await direct.end().catch(() => {});
  }
}

/** Opens the database and applies migrations before returning. */
export async function connectDatabase(opts: ConnectOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const unnamedStatements = Boolean(opts.directUrl);
    const pool = createPgPool({
      url: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      writable: true,
      unnamedStatements,
      onEvent: opts.onDatabaseEvent,
      label: 'the primary',
    });
    const onStatement = opts.onStatement;
    if (onStatement) {
      pool.on('connect', (client) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        client.query = ((...args: unknown[]) => {
          const q = args[0];
          const text = typeof q === 'string' ? q : String((q as { text?: string }).text);
          const name = typeof q === 'string' ? undefined : (q as { name?: string }).name;
          // The pool's own queries pass a callback; Drizzle's get a promise.
          const answered = onStatement(text, name);
          const last = args.length - 1;
          const callback = args[last];
          if (typeof callback === 'function') {
            if (typeof answered === 'function') args[last] = (...r: unknown[]) => (answered(), callback(...r));
            return query(...args);
          }
          const result = query(...args);
          return result instanceof Promise ? whenAnswered(result, answered) : result;
        }) as typeof client.query;
      });
    }
    const db = drizzlePg(pool, { schema, logger: opts.logger });
    try {
      await migrateDirect(opts.directUrl, db);
    } catch (e) {
      await pool.end().catch(() => {});
      throw e;
    }
    const replicas = opts.replicaUrls?.length
      ? openReplicas({
          urls: opts.replicaUrls,
          primary: pool,
          primaryDb: db as unknown as Db,
          max: opts.poolSize ?? 20,
          unnamedStatements,
          maxLagMs: opts.replicaMaxLagMs ?? 10_000,
          pollMs: opts.replicaPollMs ?? 500,
          onEvent: opts.onDatabaseEvent,
        })
      : undefined;
    const poolStats = () => ({
      max: pool.options.max,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    const close = async () => {
      await replicas?.close();
      await pool.end();
    };
    return { db: db as unknown as Db, kind: 'postgres', poolStats, replicas, close };
  }
  if (opts.image && opts.dataDir)
    throw new Error('connectDatabase: an image starts an in-memory database only (no dataDir)');
  const release = opts.dataDir ? await claimDataDir(opts.dataDir) : () => {};
  let closeOnFailure = async () => {};
  try {
    const client: PGliteLike =
      opts.pgliteThread === false
        ? new PGlite({
            dataDir: opts.dataDir,
            parsers: DRIZZLE_PARSERS,
            loadDataDir: opts.image && imageBlob(opts.image.tar),
            pgliteWasmModule: await compiledPglite(),
            startParams: pgliteStartParams(opts.pgliteSettings),
          })
        : new PGliteThread({
            dataDir: opts.dataDir,
            textTypes: DRIZZLE_TEXT_TYPES,
            onLost: opts.onDatabaseLost,
            image: opts.image,
            wasmModule: await compiledPglite(),
            settings: opts.pgliteSettings,
          });
    closeOnFailure = () => client.close();
    if (client instanceof PGliteThread) await client.waitReady;
    const onStatement = opts.onStatement;
    parsersOnceOnly(client, onStatement);
    const db = drizzlePglite(client as PGlite, { schema, logger: opts.logger });
    await migratePglite(db, { migrationsFolder });
    if (opts.dataDir) restrictDataDir(opts.dataDir);
    const close = async () => {
      await client.close();
      if (opts.dataDir) restrictDataDir(opts.dataDir);
      release();
    };
    return { db: db as unknown as Db, kind: 'pglite', close };
  } catch (e) {
    await closeOnFailure().catch(() => {});
    release();
    throw e;
  }
}
