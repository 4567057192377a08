import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  createCheckDepositProvider,
  createProcessor,
  type CheckImageStore,
  DEFAULT_RETENTION,
  type CheckDepositProvider,
  isLoopbackHost,
  parseCutoff,
  proxyRange,
  type Env,
  type OpenOptions,
  type Processor,
  type Operator,
  type Retention,
} from '@remit/core';
import { rateLimitsFromEnv, type RateLimits } from './rate-limits.js';
import { timeLimitsFromEnv, type TimeLimits } from './time-limits.js';
import { shutdownTimeoutFromEnv } from './shutdown.js';
import { widgetLimitsFromEnv, type WidgetLimits } from './plugins/widget-limits.js';
import { checkImageStoreFromEnv } from './check-images.js';

export interface ServerConfig {
  port: number;
  host: string;
  env: Env;
  publicUrl: string;
  dataDir: string;
  databaseUrl?: string;
  /** DATABASE_DIRECT_URL: a connection past the pooler (migrations); set, DATABASE_URL is taken as a transaction pooler. */
  databaseDirectUrl?: string;
  /** DATABASE_REPLICA_URL: read replicas, comma-separated (docs/scaling.md). */
  replicaUrls: string[];
  /** REMIT_REPLICA_MAX_LAG_MS: past this lag a replica is skipped (default 10 s). */
  replicaMaxLagMs?: number;
  encryptionKey: Buffer;
  /** REMIT_ENCRYPTION_KEY_PREVIOUS: during a key rotation, the old key, used only to open what it sealed. */
  previousEncryptionKey?: Buffer;
  logLevel: string;
  /** REMIT_SETTLEMENT_CUTOFF ("HH" or "HH:MM" UTC, default 00:00) in milliseconds after midnight. */
  settlementCutoffMs: number;
  /** REMIT_PROCESSOR: `simulator` (sandbox default), `stripe` (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY, REMIT_STRIPE_API_URL, REMIT_STRIPE_JS_URL) or `none` (production default: payments refused). */
  processor: Processor;
  /** REMIT_CHECK_DEPOSITS: where check deposits go, `simulator` (sandbox default) or `none` (production default: deposits refused). */
  checkDeposits: CheckDepositProvider | null;
  /** REMIT_CHECK_IMAGES_S3_*: the bucket check images go to; unset: the database (`check_images`). */
  checkImageStore?: CheckImageStore;
  /** The built pay page; unset: `apps/pay/dist` of this repository. */
  payDir?: string;
  /** REMIT_IDEMPOTENCY_LEASE_MS: how long an unfinished Idempotency-Key claim holds its key. */
  idempotencyLeaseMs?: number;
  /** The built portal; unset: `apps/portal/dist` of this repository. */
  portalDir?: string;
  /** REMIT_RATE_LIMIT_*: the rate limits (docs/operations.md "Rate limits"). */
  rateLimits: RateLimits;
  /** REMIT_WIDGET_RATE_LIMIT_*, REMIT_WIDGET_MAX_AMOUNT: the widget backend's limits (docs/embedding.md "Rate limits"). */
  widgetLimits: WidgetLimits;
  /** REMIT_REQUEST_TIMEOUT_MS, REMIT_HEADERS_TIMEOUT_MS, REMIT_KEEP_ALIVE_TIMEOUT_MS, REMIT_IDLE_TIMEOUT_MS. */
  timeLimits: TimeLimits;
  /**
   * REMIT_TRUST_PROXY: which proxies' `X-Forwarded-For` names the client address that per-address
   * limits count. Unset: none (the connection's own address); `true`: any (refused in production);
   * else addresses/CIDRs, comma-separated.
   */
  trustProxy: boolean | string[];
  /**
   * REMIT_ALLOW_PRIVATE_WEBHOOKS: webhooks may target loopback and private addresses. Default: in a
   * sandbox that only this machine reaches (HOST and PUBLIC_URL on loopback), yes; otherwise no.
   */
  privateWebhooks: boolean;
  /** REMIT_WEBHOOK_PORTS: ports production webhook URLs may name besides 443. */
  webhookPorts: number[];
  /** REMIT_SHUTDOWN_TIMEOUT_MS: the longest a SIGTERM drain may take (default 20 s). */
  shutdownTimeoutMs: number;
  /** REMIT_METRICS_TOKEN: the bearer token GET /metrics needs (in production, /metrics exists only with it). */
  metricsToken?: string;
  /** REMIT_RETENTION_*: what the purge keeps and how often it runs (docs/operations.md "Retention"). */
  retention: Retention;
  /** REMIT_OPERATOR_NAME, REMIT_OPERATOR_CONTACT: who gives merchants the SAQ A confirmation (GET /merchant/saq-a). */
  operator: Operator;
}

/**
 * Reads the operator contract (docs/operations.md#configuration) from the environment. The encryption key comes from
 * REMIT_ENCRYPTION_KEY (32 bytes, base64 or hex); in sandbox without it, one is made once and
 * kept in the data directory so restarts can still read what they stored. Throws one error naming
 * every setting that is wrong (`readConfig` gives them as a list).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const { config, problems } = readConfig(env);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return config;
}

/**
 * The configuration and every problem with it, so that an operator fixes them all in one go rather
 * than one per start. A setting in error takes a stand-in value that has no effect (the caller must
 * not run with a configuration that has problems).
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): { config: ServerConfig; problems: string[] } {
  const problems: string[] = [];
  const read = <T>(step: () => T, standIn: T): T => {
    try {
      return step();
    } catch (err) {
      // One error may carry several problems, one per line (createProcessor's Stripe settings).
      problems.push(...(err as Error).message.split('\n'));
      return standIn;
    }
  };
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const given = env.REMIT_ENV ?? 'sandbox';
  // A misspelt environment is checked as production: its checks are the strict ones, and nothing is written.
  const remitEnv: Env = given === 'sandbox' ? 'sandbox' : 'production';
  if (given !== 'sandbox' && given !== 'production')
    problems.push(`REMIT_ENV must be sandbox or production, not ${given}`);
  const dataDir = resolve(env.REMIT_DATA_DIR ?? '.remit');
  const publicUrl = (env.PUBLIC_URL || defaultPublicUrl(host, port)).replace(/\/+$/, '');
  // A random stand-in: an unreadable key is its configuration line alone, not also "guessable".
  const currentKey = read(() => encryptionKey(env.REMIT_ENCRYPTION_KEY, dataDir, remitEnv), randomBytes(32));
  const config: ServerConfig = {
    port,
    host,
    env: remitEnv,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    replicaUrls: read(() => replicaUrls(env.DATABASE_REPLICA_URL, env.DATABASE_URL), []),
    replicaMaxLagMs: read(() => positiveMs('REMIT_REPLICA_MAX_LAG_MS', env.REMIT_REPLICA_MAX_LAG_MS), undefined),
    encryptionKey: currentKey,
    previousEncryptionKey: read(() => previousEncryptionKey(env.REMIT_ENCRYPTION_KEY_PREVIOUS, currentKey), undefined),
    logLevel: env.LOG_LEVEL ?? 'info',
    settlementCutoffMs: read(() => parseCutoff(env.REMIT_SETTLEMENT_CUTOFF), 0),
    processor: read(() => createProcessor(env.REMIT_PROCESSOR, remitEnv, env), createProcessor('none', remitEnv)),
    checkDeposits: read(() => createCheckDepositProvider(env.REMIT_CHECK_DEPOSITS, remitEnv), null),
    checkImageStore: read(() => checkImageStoreFromEnv(env, remitEnv), undefined),
    payDir: env.REMIT_PAY_DIR ? resolve(env.REMIT_PAY_DIR) : undefined,
    idempotencyLeaseMs: read(() => positiveMs('REMIT_IDEMPOTENCY_LEASE_MS', env.REMIT_IDEMPOTENCY_LEASE_MS), undefined),
    portalDir: env.REMIT_PORTAL_DIR ? resolve(env.REMIT_PORTAL_DIR) : undefined,
    rateLimits: read(() => rateLimitsFromEnv(env), rateLimitsFromEnv({})),
    widgetLimits: read(() => widgetLimitsFromEnv(env), widgetLimitsFromEnv({})),
    timeLimits: read(() => timeLimitsFromEnv(env), timeLimitsFromEnv({})),
    trustProxy: read(() => trustProxy(env.REMIT_TRUST_PROXY), false),
    privateWebhooks: read(() => privateWebhooks(env.REMIT_ALLOW_PRIVATE_WEBHOOKS, remitEnv, host, publicUrl), false),
    webhookPorts: read(() => webhookPorts(env.REMIT_WEBHOOK_PORTS), []),
    shutdownTimeoutMs: read(() => shutdownTimeoutFromEnv(env), shutdownTimeoutFromEnv({})),
    metricsToken: env.REMIT_METRICS_TOKEN || undefined,
    retention: read(() => retentionFromEnv(env), DEFAULT_RETENTION),
    operator: {
      name: env.REMIT_OPERATOR_NAME?.trim() || undefined,
      contact: env.REMIT_OPERATOR_CONTACT?.trim() || undefined,
    },
  };
  return { config, problems };
}

/**
 * Without PUBLIC_URL, links name the address the server listens on, so that they open on this
 * machine (a wildcard host answers on 127.0.0.1 too); any other address needs PUBLIC_URL.
 */
export function defaultPublicUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

function positiveMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a whole number of milliseconds above 0`);
  return n;
}

/**
 * REMIT_RETENTION_EVENTS_DAYS, _MESSAGES_DAYS, _SESSIONS_DAYS, _CSP_REPORTS_DAYS (whole days of 1 or more, or `off`:
 * kept forever) and REMIT_RETENTION_PURGE_INTERVAL_MS (how often the purge runs).
 */
export function retentionFromEnv(env: NodeJS.ProcessEnv): Retention {
  const days = (name: string, fallback: number | null): number | null => {
    const v = env[name]?.trim();
    if (v === undefined || v === '') return fallback;
    if (v.toLowerCase() === 'off') return null;
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new Error(`${name} must be a whole number of days (1 or more), or off to keep forever, not ${v}`);
    return Number(v);
  };
  return {
    eventsDays: days('REMIT_RETENTION_EVENTS_DAYS', DEFAULT_RETENTION.eventsDays),
    messagesDays: days('REMIT_RETENTION_MESSAGES_DAYS', DEFAULT_RETENTION.messagesDays),
    sessionsDays: days('REMIT_RETENTION_SESSIONS_DAYS', DEFAULT_RETENTION.sessionsDays),
    cspReportsDays: days('REMIT_RETENTION_CSP_REPORTS_DAYS', DEFAULT_RETENTION.cspReportsDays),
    intervalMs:
      positiveMs('REMIT_RETENTION_PURGE_INTERVAL_MS', env.REMIT_RETENTION_PURGE_INTERVAL_MS) ??
      DEFAULT_RETENTION.intervalMs,
  };
}

/** DATABASE_REPLICA_URL: one or more `postgres://` URLs, comma-separated; only beside DATABASE_URL. */
function replicaUrls(value: string | undefined, databaseUrl: string | undefined): string[] {
  const urls = (value ?? '')
    .split(/,(?=\s*postgres(?:ql)?:\/\/)/)
    .map((u) => u.trim())
    .filter(Boolean);
  if (urls.length && !databaseUrl)
    throw new Error('DATABASE_REPLICA_URL needs DATABASE_URL (replicas of a PostgreSQL primary)');
  for (const u of urls)
    if (!/^postgres(ql)?:\/\//.test(u))
      throw new Error('DATABASE_REPLICA_URL must be postgres:// URLs, comma-separated');
  return urls;
}

/** The `openCore` options for this configuration: Postgres when DATABASE_URL is set, else the data directory. */
export function coreOptions(config: ServerConfig): OpenOptions {
  return {
    env: config.env,
    publicUrl: config.publicUrl,
    encryptionKey: config.encryptionKey,
    previousEncryptionKey: config.previousEncryptionKey,
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    replicaUrls: config.replicaUrls,
    replicaMaxLagMs: config.replicaMaxLagMs,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    filesDir: config.dataDir,
    settlementCutoffMs: config.settlementCutoffMs,
    processor: config.processor,
    checkDeposits: config.checkDeposits,
    checkImageStore: config.checkImageStore,
    idempotencyLeaseMs: config.idempotencyLeaseMs,
    privateWebhooks: config.privateWebhooks,
    webhookPorts: config.webhookPorts,
  };
}

/**
 * Whether webhooks may reach loopback and private addresses. A sandbox anyone else can reach would
 * otherwise be an open relay into its network (credentials need no sign-in there, and the delivery
 * log shows what answered), so by default only one that listens on loopback and is published at a
 * loopback address allows them. Production never does.
 */
function privateWebhooks(value: string | undefined, env: Env, host: string, publicUrl: string): boolean {
  const v = value?.trim().toLowerCase() ?? '';
  if (v !== '' && v !== 'true' && v !== 'false')
    throw new Error(`REMIT_ALLOW_PRIVATE_WEBHOOKS must be true or false, not ${value}`);
  if (env === 'production') {
    if (v === 'true')
      throw new Error(
        'REMIT_ALLOW_PRIVATE_WEBHOOKS applies to the sandbox only: production webhooks reach public hosts alone',
      );
    return false;
  }
  if (v !== '') return v === 'true';
  let published = '';
  try {
    published = new URL(publicUrl).hostname;
  } catch {
    /* a bad PUBLIC_URL is not on loopback */
  }
  return isLoopbackHost(host) && isLoopbackHost(published);
}

function webhookPorts(value: string | undefined): number[] {
  const parts = (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.map((p) => {
    const n = Number(p);
    if (!/^\d+$/.test(p) || n < 1 || n > 65535)
      throw new Error(`REMIT_WEBHOOK_PORTS must be port numbers separated by commas (like 8443,9443), not ${value}`);
    return n;
  });
}

function trustProxy(value: string | undefined): boolean | string[] {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  // Fastify trusts nobody with a hop count (it cannot tell the nearest peer is a proxy): say so, not silently.
  if (/^\d+$/.test(v))
    throw new Error(
      `REMIT_TRUST_PROXY must name the proxies' addresses or CIDRs (like 10.0.0.2 or 10.0.0.0/24), not a count of hops (${v})`,
    );
  const entries = v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unreadable = entries.filter((e) => !proxyRange(e));
  if (unreadable.length > 0)
    throw new Error(
      `REMIT_TRUST_PROXY must be true, false, or the proxies' addresses or CIDRs, comma-separated (like 10.0.0.2 or 10.0.0.0/24), not ${unreadable.join(', ')}`,
    );
  const ranges = entries.map((e) => proxyRange(e)!);
  const wide = entries.filter((_, i) => ranges[i]!.tooWide);
  if (wide.length > 0)
    throw new Error(
      `REMIT_TRUST_PROXY names ranges wider than a /8 of IPv4 or a /32 of IPv6 (${wide.join(', ')}): any client in them could pick the address the per-address limits count; name the proxies' own addresses or subnet (like 10.0.0.2 or 10.0.0.0/24)`,
    );
  return ranges.map((r) => r.cidr);
}

function parseKey(name: string, given: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.from(given, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, as 64 hex digits or base64`);
  return key;
}

/** The old key during a rotation; refused when it is the current key (given, or the sandbox's own file). */
function previousEncryptionKey(given: string | undefined, current: Buffer): Buffer | undefined {
  if (!given) return undefined;
  const key = parseKey('REMIT_ENCRYPTION_KEY_PREVIOUS', given);
  if (key.equals(current))
    throw new Error(
      'REMIT_ENCRYPTION_KEY_PREVIOUS is the same key as REMIT_ENCRYPTION_KEY: give the new key as REMIT_ENCRYPTION_KEY',
    );
  return key;
}

function encryptionKey(given: string | undefined, dataDir: string, env: Env): Buffer {
  if (given) return parseKey('REMIT_ENCRYPTION_KEY', given);
  if (env === 'production') throw new Error('REMIT_ENCRYPTION_KEY is required in production');
  const file = join(dataDir, 'encryption.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64'), { mode: 0o600 });
  return key;
}
