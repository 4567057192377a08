import pg from 'pg';
import { isDatabaseUnavailable, parsePgHosts } from './pg-hosts.js';

/** Something worth one log line about the database: lost, back, a replica skipped or used again. */
export type DatabaseEvent = { level: 'warn' | 'info'; message: string };

export interface PgPoolOptions {
  url: string;
  max: number;
  /**
   * Refuse a connection to a server that is read-only (a standby still in recovery, reached through
   * an address not yet moved): writes must not land there. The primary's pool does; replicas' do not.
   */
  writable: boolean;
  /** Behind a transaction pooler (PgBouncer): statements go unnamed, never prepared by name across transactions. */
  unnamedStatements: boolean;
  /** Told once when the database is lost (a connection could not be made) and once when it is back. */
  onEvent?: (e: DatabaseEvent) => void;
  /** Names the database in those lines: "the primary", "replica 127.0.0.1:5433". */
  label: string;
}

/** A connection that reached a read-only server (a standby in recovery) when a writable one was asked for. */
export class ReadOnlyDatabaseError extends Error {
  readonly code = '25006';
  constructor(host: string) {
    super(`the database at ${host} is read-only (a standby in recovery): not used for writes`);
  }
}

const noop = () => {};

/** `host:port` of a connection string, for log lines (never its credentials). */
export function hostOf(url: string): string {
  const m = /^[a-z]+:\/\/(?:[^@/?]*@)?([^/?]*)/i.exec(url);
  return m?.[1] || 'localhost';
}

/**
 * A node-postgres pool that survives its server going away: a dropped connection never ends the
 * process (every client has an error listener), a standby's connection is refused for writes and
 * dropped on a read-only error, the hosts of a multi-host URL are tried in turn, and the pool
 * connects again by itself on the next request. Lines are told on loss and on return only.
 */
export function createPgPool(opts: PgPoolOptions): pg.Pool {
  const { urls, targetSessionAttrs } = parsePgHosts(opts.url);
  const checkWritable = opts.writable && targetSessionAttrs === 'read-write';
  let current = 0;
  let up = true;
  const tell = (nowUp: boolean, detail: string) => {
    if (nowUp === up) return;
    up = nowUp;
    opts.onEvent?.(
      nowUp
        ? { level: 'warn', message: `database connection back: ${opts.label} at ${detail} answers` }
        : { level: 'warn', message: `database connection lost: ${opts.label}: ${detail}` },
    );
  };
  const failed = (index: number, e: unknown) => {
    if (current === index) current = (index + 1) % urls.length;
    tell(false, (e as Error).message || String(e));
  };
  const unnamed = opts.unnamedStatements;

  class HostClient extends pg.Client {
    readonly hostIndex: number;
    constructor(config: pg.ClientConfig) {
      const index = current;
      super({ ...config, connectionString: urls[index] });
      this.hostIndex = index;
      // Emitted when the server goes away while the client is checked out (a held transaction):
      // unhandled, it would end the process. The failed query rejects; the pool drops the client.
      this.on('error', noop);
    }

    // pg's overloads (a callback, or a promise of the client) are kept as they are.
    override connect(callback?: (err: any, client?: any) => void): any {
      const done = (async () => {
        try {
          await super.connect();
        } catch (e) {
          failed(this.hostIndex, e);
          throw e;
        }
        if (checkWritable) {
          let readOnly: boolean;
          try {
            const r = await super.query('show transaction_read_only');
            readOnly = r.rows[0]?.transaction_read_only === 'on';
          } catch (e) {
            failed(this.hostIndex, e);
            throw e;
          }
          if (readOnly) {
            const e = new ReadOnlyDatabaseError(hostOf(urls[this.hostIndex]!));
            failed(this.hostIndex, e);
            await this.end().catch(noop);
            throw e;
          }
        }
        tell(true, hostOf(urls[this.hostIndex]!));
      })();
      if (!callback) return done.then(() => this);
      done.then(() => callback(null, this), callback);
      return undefined;
    }

    // pg's overloads are passed through unchanged.
    override query(...args: any[]): any {
      const q = args[0];
      if (unnamed && q && typeof q === 'object' && q.name) {
        // A transaction pooler hands each transaction any server connection: a name prepared on
        // one is unknown (or taken) on the next. Unnamed, each statement is parsed where it runs.
        args[0] = { text: q.text, values: q.values, types: q.types, rowMode: q.rowMode };
      }
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (result instanceof Promise) {
        // A read-only error: this connection reached a standby; end it so the pool never reuses it.
        result.catch((e: { code?: string }) => {
          if (e?.code === '25006') void this.end().catch(noop);
        });
      }
      return result;
    }
  }

  const pool = new pg.Pool({
    connectionString: urls[0],
    max: opts.max,
    Client: HostClient as unknown as typeof pg.Client,
    // A moved or vanished address must not hold a request for minutes: the request answers 503.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
  });
  // An idle client whose server connection drops (restart, failover, DROP DATABASE) emits here;
  // unhandled it would end the process. The pool replaces the client on next use.
  pool.on('error', noop);
  if (urls.length > 1) {
    // Each host in turn (libpq's multi-host URL): the first connection that works and is writable serves.
    const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    const connectAny = async (): Promise<pg.PoolClient> => {
      let last: unknown;
      for (let i = 0; i < urls.length; i++) {
        try {
          return await connect();
        } catch (e) {
          last = e;
          if (!isDatabaseUnavailable(e)) throw e;
        }
      }
      throw last;
    };
    pool.connect = ((callback?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
      const p = connectAny();
      if (!callback) return p;
      p.then(
        (c) => callback(undefined, c, c.release),
        (e: Error) => callback(e),
      );
      return undefined;
    }) as typeof pool.connect;
  }
  return pool;
}
