import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { testDbKind } from '@remit/core/testing';
import { randomBytes } from 'node:crypto';
import { freePort, startProcess, type ServerProcess } from './process.js';
import { basicAuth, sandboxCredentials, sendTo } from './http.js';
import type { TestServer } from './harness.js';

/**
 * Real PostgreSQL clusters and a PgBouncer for the database scaling tests (database-*.test.ts):
 * a primary, its streaming standbys (pg_basebackup), promotion, and a TCP proxy standing for an
 * address that moves. Each cluster lives in a fresh /tmp folder on a loopback port; `stop` them all.
 */
const BIN = process.env.REMIT_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const PGBOUNCER = process.env.REMIT_PGBOUNCER ?? '/usr/sbin/pgbouncer';

/** initdb, pg_ctl, pg_basebackup and pgbouncer are installed (`.ci/run` installs them). */
const clusterToolsFound =
  ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => existsSync(join(BIN, b))) && existsSync(PGBOUNCER);

/**
 * Whether this pass runs the cluster tests: the Postgres pass only (they start clusters of their own,
 * nothing PGlite could stand for), and there the tools must be installed: missing, it fails, not skips.
 */
export function clusterTestsRun(): boolean {
  if (testDbKind !== 'postgres') return false;
  if (!clusterToolsFound)
    throw new Error(
      'PostgreSQL 15 server binaries and pgbouncer are needed (.ci/run installs postgresql-15 and pgbouncer)',
    );
  return true;
}

const run = promisify(execFile);
/** PostgreSQL and PgBouncer refuse to run as root: as root, they run as `postgres`. */
const asRoot = process.getuid?.() === 0;
const owner = asRoot
  ? {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
    }
  : null;
function tool(file: string, args: string[]) {
  return asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args);
}
function freshDir(prefix: string): string {
  const dir = mkdtempSync(`/tmp/${prefix}-`);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

export interface PgNode {
  port: number;
  dir: string;
  /** A URL of database `db` on this node. */
  url(db?: string): string;
  /** Runs one statement on database `db` and answers its rows. */
  query<R = Record<string, unknown>>(text: string, db?: string): Promise<R[]>;
  start(): Promise<void>;
  /** `fast` (a clean stop) or `immediate` (a crash: no shutdown checkpoint). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  promote(): Promise<void>;
  /** Adds lines to postgresql.auto.conf (read at the next start). */
  configure(lines: string[]): void;
  /** The server log so far. */
  log(): string;
  /** Stops it if running and removes its folder. */
  destroy(): Promise<void>;
}

const BASE_SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  // Tests, not durability of the machine: the failover is the server's crash, not the disk's.
  'fsync = off',
  'shared_buffers = 16MB',
  'max_connections = 80',
  'wal_level = replica',
  'max_wal_senders = 6',
  'wal_keep_size = 64MB',
  'hot_standby = on',
  'hot_standby_feedback = on',
  'wal_receiver_status_interval = 1s',
  "log_line_prefix = '%m [%p] '",
];

function node(dir: string, port: number): PgNode {
  let running = false;
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  const self: PgNode = {
    port,
    dir,
    url,
    async query<R>(text: string, db?: string) {
      const c = new pg.Client({ connectionString: url(db) });
      c.on('error', () => {});
      await c.connect();
      try {
        return (await c.query(text)).rows as R[];
      } finally {
        await c.end().catch(() => {});
      }
    },
    async start() {
      await tool(join(BIN, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', dir, '-l', join(dir, 'server.log')]);
      running = true;
    },
    async stop(mode = 'fast') {
      if (!running) return;
      running = false;
      await tool(join(BIN, 'pg_ctl'), ['stop', '-w', '-t', '60', '-D', dir, '-m', mode]).catch(() => {});
    },
    async promote() {
      await tool(join(BIN, 'pg_ctl'), ['promote', '-w', '-t', '60', '-D', dir]);
    },
    configure(lines) {
      appendFileSync(join(dir, 'postgresql.auto.conf'), `${lines.join('\n')}\n`);
    },
    log: () => {
      try {
        return readFileSync(join(dir, 'server.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async destroy() {
      await self.stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}

/**
 * A new primary, started. `settings` are extra postgresql.conf lines (`log_statement = 'all'`,
 * `synchronous_standby_names = 'standby1'`).
 */
export async function startPrimary(settings: string[] = []): Promise<PgNode> {
  const dir = freshDir('remit-pg');
  const port = await freePort();
  await tool(join(BIN, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8', '--locale=C']);
  const n = node(dir, port);
  n.configure([...BASE_SETTINGS, `port = ${port}`, `unix_socket_directories = '${dir}'`, ...settings]);
  await n.start();
  return n;
}

/**
 * A streaming standby of `primary` (pg_basebackup), started, named `name` (its
 * application_name, for `synchronous_standby_names`). `settings` as for startPrimary.
 */
export async function startStandby(primary: PgNode, name: string, settings: string[] = []): Promise<PgNode> {
  const dir = freshDir('remit-pg');
  const port = await freePort();
  await tool(join(BIN, 'pg_basebackup'), [
    '-D',
    dir,
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-X',
    'stream',
    '-R',
    '-c',
    'fast',
  ]);
  const n = node(dir, port);
  n.configure([
    `port = ${port}`,
    `unix_socket_directories = '${dir}'`,
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}'`,
    // Once promoted it has no standby of its own: it must not wait for one.
    "synchronous_standby_names = ''",
    ...settings,
  ]);
  await n.start();
  return n;
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  ms = 30_000,
  what = 'the condition',
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A TCP proxy on a loopback port: the database's address, as a virtual IP or a DNS name is. `moveTo`
 * points it elsewhere and cuts the connections it carried.
 */
export interface MovingAddress {
  port: number;
  moveTo(port: number): void;
  close(): Promise<void>;
}

export async function movingAddress(target: number): Promise<MovingAddress> {
  const sockets = new Set<Socket>();
  let to = target;
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: to });
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    port,
    moveTo(next) {
      to = next;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface PgBouncer {
  port: number;
  url(db: string): string;
  log(): string;
  stop(): Promise<void>;
}

/** PgBouncer in transaction mode in front of `target` (every database), trust auth, its config written here. */
export async function startPgBouncer(target: PgNode, poolSize = 10): Promise<PgBouncer> {
  const dir = freshDir('remit-pgbouncer');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 400',
      `default_pool_size = ${poolSize}`,
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  if (owner) for (const f of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, f), owner.uid, owner.gid);
  await tool(PGBOUNCER, ['-d', ini]);
  const pidFile = join(dir, 'pgbouncer.pid');
  await until(() => existsSync(pidFile), 15_000, 'pgbouncer to start');
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return {
    port,
    url: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    log: () => {
      try {
        return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
      } catch {
        return '';
      }
    },
    async stop() {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await until(
        () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        },
        10_000,
        'pgbouncer to stop',
      ).catch(() => process.kill(pid, 'SIGKILL'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A sandbox server process on the given DATABASE_URL (and other settings), with an API client's credentials. */
export async function startServerOn(
  env: Record<string, string>,
): Promise<{ server: ServerProcess; authorization: string; clientId: string; close(): Promise<void> }> {
  const dataDir = mkdtempSync('/tmp/remit-cluster-server-');
  const server = await startProcess('apps/server/src/main.ts', {
    REMIT_ENV: 'sandbox',
    REMIT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    REMIT_DATA_DIR: dataDir,
    REMIT_WORKERS: 'off',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const [clientId, secretKey] = await sandboxCredentials(sendTo(server.base));
  return {
    server,
    authorization: basicAuth(clientId, secretKey),
    clientId,
    close: async () => {
      await server.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The `http` and `credentials` of a TestServer for a server process: the fixtures (newMerchant, charge) take it. */
export function processHttp(base: string): Pick<TestServer, 'http' | 'credentials'> {
  const http = sendTo(base);
  return { http, credentials: () => sandboxCredentials(http) };
}
