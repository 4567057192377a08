import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import {
  messagingOf,
  migratedImage,
  openCore,
  startWorkers,
  type CheckDepositProvider,
  type CheckImageStore,
  type Core,
  type Env,
  type Messaging,
  type Now,
  type Operator,
  type Processor,
  type WorkerOptions,
  type Workers,
} from '@remit/core';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { sandboxCredentials, sendTo, type HttpRequest, type HttpResponse } from './http.js';
import { buildApp, loggerOptions, type RemitApp } from '../app.js';
import { createMetrics } from '../metrics.js';
import { generousRateLimits, type RateLimits } from '../rate-limits.js';
import type { TimeLimits } from '../time-limits.js';
import type { WidgetLimits } from '../plugins/widget-limits.js';

/**
 * Tests run against PGlite by default; `REMIT_TEST_DB=postgres` runs them on the local Postgres
 * (`TEST_POSTGRES_URL`), each server in a database of its own, dropped at close. The database
 * helpers live in the core's test support and are re-exported here for the server's tests.
 */
export { createTestDatabase, testDbKind } from '@remit/core/testing';

export interface TestServer {
  url: string;
  api: string;
  core: Core;
  app: RemitApp;
  /** Any request against the server, with `auth` as [client_id, secret_key]. */
  http<T = any>(req: Omit<HttpRequest, 'url'> & { path: string; auth?: [string, string] }): Promise<HttpResponse<T>>;
  /** Fresh sandbox credentials. */
  credentials(): Promise<[string, string]>;
  /** The webhook and message dispatchers, when started with `workers`. */
  workers: Workers | null;
  /** The Postgres database's URL (REMIT_TEST_DB=postgres); null with PGlite. */
  databaseUrl: string | null;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: {
    env?: Env;
    now?: Now;
    workers?: WorkerOptions | true;
    /** The built pay page; default apps/pay/dist. */
    payDir?: string;
    idempotencyLeaseMs?: number;
    /** Where the server's JSON log lines go (at `logLevel`, default info); unset: no log. */
    logStream?: { write(line: string): void };
    logLevel?: string;
    /** The built portal; default apps/portal/dist. */
    portalDir?: string;
    /** Rate limits to apply; by default every limit is raised out of the way (generousRateLimits). */
    rateLimits?: Partial<RateLimits>;
    /** The widget backend's limits; default the server's defaults (not raised: the widget tests count against them). */
    widgetLimits?: WidgetLimits;
    /** Fastify's trustProxy: true or the proxies (tests of per-address limits send X-Forwarded-For); default none. */
    trustProxy?: boolean | string[];
    /** Sees every statement the driver sends (BEGIN and COMMIT included). */
    onStatement?: (text: string) => void;
    /** Request, header, keep-alive and idle time limits; default the server's defaults. */
    timeLimits?: TimeLimits;
    /** Webhooks to loopback and private addresses (REMIT_ALLOW_PRIVATE_WEBHOOKS); default: in sandbox yes. */
    privateWebhooks?: boolean;
    /** Ports production webhook URLs may name besides 443 (REMIT_WEBHOOK_PORTS). */
    webhookPorts?: number[];
    /**
     * The channels messages can go out on; default those of `workers` (its transports, and in sandbox
     * the inbox), else the core's (both in sandbox, none in production).
     */
    messaging?: Messaging;
    /** Verifies Twilio's status callbacks (TWILIO_AUTH_TOKEN). */
    twilioAuthToken?: string;
    /** Serve GET /metrics (with this REMIT_METRICS_TOKEN, if any); the workers report to it too. */
    metrics?: { token?: string };
    /** The payment processor; default the environment's (the simulator in sandbox). */
    processor?: Processor;
    /** The check-deposit provider; default the environment's (the simulator in sandbox, none in production). */
    checkDeposits?: CheckDepositProvider | null;
    /** Where check images go; default the database. */
    checkImageStore?: CheckImageStore;
    /** The operator named in the SAQ A document (REMIT_OPERATOR_NAME, REMIT_OPERATOR_CONTACT). */
    operator?: Operator;
  } = {},
): Promise<TestServer> {
  const db = testDbKind === 'postgres' ? await createTestDatabase() : null;
  const workerOptions = opts.workers === true ? {} : (opts.workers ?? {});
  const env = opts.env ?? 'sandbox';
  const core = await openCore({
    env,
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: db?.url,
    // On PGlite from the migrated image (core's db/migrated-image.ts), made once per machine: a start
    // takes a fraction of a second instead of initdb, every migration and a VACUUM.
    ...(db ? {} : { image: await migratedImage(), vacuumAtStart: false }),
    now: opts.now,
    onStatement: opts.onStatement,
    idempotencyLeaseMs: opts.idempotencyLeaseMs,
    privateWebhooks: opts.privateWebhooks,
    webhookPorts: opts.webhookPorts,
    messaging: opts.messaging ?? (opts.workers ? messagingOf(env, workerOptions) : undefined),
    twilioAuthToken: opts.twilioAuthToken,
    processor: opts.processor,
    checkDeposits: opts.checkDeposits,
    checkImageStore: opts.checkImageStore,
    // Each server's data directory apart, never the repository's .remit (check images of earlier versions moved from there).
    filesDir: mkdtempSync(join(tmpdir(), 'remit-files-')),
  });
  const metrics = opts.metrics ? createMetrics(core) : null;
  const logger = opts.logStream ? loggerOptions(opts.logLevel ?? 'info', opts.logStream) : undefined;
  const app = await buildApp(core, {
    payDir: opts.payDir,
    portalDir: opts.portalDir,
    logger,
    rateLimits: { ...generousRateLimits(), ...opts.rateLimits },
    widgetLimits: opts.widgetLimits,
    timeLimits: opts.timeLimits,
    trustProxy: opts.trustProxy,
    metrics: metrics ? { metrics, token: opts.metrics?.token } : undefined,
    operator: opts.operator,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  core.ctx.publicUrl = address;
  // With a log stream, the workers log there too (send failures, purges).
  const workers = opts.workers
    ? startWorkers(core.ctx, {
        ...(opts.logStream ? { logger: app.log } : {}),
        ...(metrics ? metrics.workerOptions(workerOptions) : workerOptions),
      })
    : null;
  const http: TestServer['http'] = sendTo(address);
  return {
    url: address,
    api: `${address}/api/v1`,
    core,
    app,
    http,
    credentials: () => sandboxCredentials(http),
    workers,
    databaseUrl: db?.url ?? null,
    async close() {
      await workers?.stop();
      await app.close();
      await core.close();
      await db?.drop();
      rmSync(core.ctx.filesDir, { recursive: true, force: true });
    },
  };
}

/** Row counts of every table: "nothing written" means these do not change. */
export async function tableCounts(core: Core): Promise<Record<string, number>> {
  const names = [
    'clients',
    'merchants',
    'pay_links',
    'customers',
    'payment_methods',
    'transactions',
    'check_images',
    'events',
    'messages',
  ];
  const out: Record<string, number> = {};
  for (const n of names) {
    const r = await core.ctx.db.execute(sql.raw(`select count(*)::int as c from ${n}`));
    const rows = (r as unknown as { rows: Array<{ c: number }> }).rows;
    out[n] = rows[0]!.c;
  }
  return out;
}
