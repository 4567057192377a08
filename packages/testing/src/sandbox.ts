import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import {
  exampleOnboarding,
  expireWidgetLinks,
  isLoopbackHost,
  openCore,
  purgeNow,
  schema,
  startWorkers,
  updateWebhookUrl,
  DEFAULT_RETENTION,
  type Core,
  type DatabaseImage,
} from '@remit/core';
import { buildApp, generousRateLimits } from '@remit/server/embed';
import { durationMs, type Duration } from './duration.js';
import { forcingSimulator } from './forced-outcomes.js';
import type { ForcedOutcome } from './outcomes.js';
import { call, expectOk } from './http.js';
import { sandboxInbox, type Messages } from './inbox.js';
import { startWebhookReceiver, type Webhooks } from './webhook-receiver.js';
import { dropImage, sandboxImage } from './database-image.js';
import { sandboxControls, type ControlTarget } from './controls.js';

export interface SandboxOptions {
  /** The port to listen on; default a free one. */
  port?: number;
  /** The address to listen on; default 127.0.0.1. On any but loopback (`0.0.0.0`) webhook URLs on loopback and private networks are refused, as `npm start` does. */
  host?: string;
  /** The webhook receiver's port on 127.0.0.1; default a free one. */
  webhooksPort?: number;
  /** Register the kit's webhook receiver for the sandbox's credentials (default true). */
  webhooks?: boolean;
  /** What the retention purge keeps, in days (null: forever); it runs after each `clock.advance`. Default 30 days of events and messages, 7 of sessions. */
  retention?: { eventsDays?: number | null; messagesDays?: number | null; sessionsDays?: number | null };
  /** The daily settlement cutoff, `HH` or `HH:MM` UTC; default 00:00. */
  settlementCutoff?: string;
}

export interface Credentials {
  clientId: string;
  secretKey: string;
}

export interface SandboxMerchant {
  merchantKey: string;
  merchantId: string;
  publicKey: string;
}

export interface MerchantFields {
  business_name?: string;
  email?: string;
}

/** A verification state to put a merchant in: what Stripe would ask for, refuse, or hold back. */
/** A requirement as `verification` lists it: Stripe's name and a label for people. */
export interface VerificationItem {
  requirement: string;
  label: string;
}

/** A merchant's `verification`, as `GET /merchant/{merchant_id}` answers it (written out: the kit's types stand alone). */
export interface Verification {
  status: 'action_required' | 'pending_review' | 'complete' | 'restricted' | 'rejected';
  currently_due: VerificationItem[];
  eventually_due: VerificationItem[];
  past_due: VerificationItem[];
  pending_verification: VerificationItem[];
  errors: Array<VerificationItem & { code: string; reason: string }>;
  deadline: string | null;
  disabled_reason: string | null;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  upcoming: { eventually_due: VerificationItem[]; deadline: string | null };
}

export interface VerificationState {
  /** Stripe's requirement names, e.g. `individual.verification.document`. */
  currently_due?: string[];
  /** Sent and refused (each is asked for again); `code` and `reason` default to a generic failure. */
  errors?: Array<{ requirement: string; code?: string; reason?: string }>;
  /** Charges held off: new payments answer 409 merchant_restricted. */
  restricted?: boolean;
}

export interface SandboxClock {
  /** Moves the sandbox clock forward: `'25h'`, `'3d'`, `'90m'` or milliseconds. Settlement, the 24-hour refund rule, link expiry and retention follow it. Resolves with the new time. */
  advance(by: Duration): Promise<Date>;
  /** The sandbox's time now. */
  now(): Date;
}

export interface Sandbox {
  /** The server: the API at `${url}/api/v1`, the pay pages at `${url}/pay/…`, the loader at `${url}/js/dynamic-launch.js`. */
  url: string;
  /** Sandbox API credentials (HTTP Basic: client id and secret key); the webhook receiver is registered for them. */
  credentials: Credentials;
  /** An onboarded, approved merchant of these credentials. */
  createMerchant(fields?: MerchantFields): Promise<SandboxMerchant>;
  webhooks: Webhooks;
  messages: Messages;
  clock: SandboxClock;
  /** What the processor still needs from a merchant: the `verification` of `GET /merchant/{id}`. */
  verification(merchantId: string): Promise<Verification>;
  /** Puts a merchant in a verification state (`POST /sandbox/merchant-verification`, fires `merchant.verification` when it changes); `{}` clears it. */
  setVerification(merchantId: string, state: VerificationState): Promise<Verification>;
  /** Forces an outcome on the next payment (see ForcedOutcome); calls queue up. */
  fail(next: ForcedOutcome): void;
  /** Empties the sandbox (merchants, payments, events, messages, the clock, forced outcomes); the credentials stay valid. */
  reset(): Promise<void>;
  /** Stops the server and frees the database. */
  stop(): Promise<void>;
}

/**
 * A test's database is small: 16 MB of shared buffers instead of PostgreSQL's 128 MB keeps the
 * database's WebAssembly heap at its 128 MB floor (184 MB otherwise) and starts it sooner.
 */
const SANDBOX_PGLITE = { shared_buffers: '16MB' };

/** The pages this package carries (dist/pages): absent when run from the repository's sources, where the server finds its builds itself. */
function bundledPages() {
  const dir = fileURLToPath(new URL('./pages', import.meta.url));
  if (!existsSync(dir)) return {};
  return {
    payDir: join(dir, 'pay'),
    portalDir: join(dir, 'portal'),
    widgetAssets: { loaderDir: join(dir, 'loader'), widgetsDir: join(dir, 'widgets') },
  };
}

function cutoffMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2] ?? 0) > 59)
    throw new RangeError(`settlementCutoff must be HH or HH:MM (UTC), not ${text}`);
  return Number(m[1]) * 3_600_000 + Number(m[2] ?? 0) * 60_000;
}

/**
 * Starts a Remit sandbox in this process: an in-memory database, the real server on a free port,
 * its webhooks delivered to a receiver of the kit, its SMS and email kept in the inbox.
 *
 * @example
 * const sandbox = await startSandbox();
 * const m = await sandbox.createMerchant();
 * // … call `${sandbox.url}/api/v1` with sandbox.credentials and m.merchantKey …
 * await sandbox.stop();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const retention = { ...DEFAULT_RETENTION, ...options.retention };
  const merchantKeys = new Map<string, string>();
  let auth: [string, string] = ['', ''];
  let url = '';
  const achReturns: string[] = [];
  const forcing = forcingSimulator((ref) => achReturns.push(ref));
  const settlementCutoffMs = cutoffMs(options.settlementCutoff);
  const filesDir = mkdtempSync(join(tmpdir(), 'remit-sandbox-'));
  const host = options.host ?? '127.0.0.1';
  // Each sandbox its own database, from the migrated image (database-image.ts) and a key of its own.
  let image: DatabaseImage | undefined;
  const open = async () =>
    openCore({
      env: 'sandbox',
      publicUrl: 'http://127.0.0.1',
      encryptionKey: randomBytes(32),
      now,
      processor: forcing.processor,
      settlementCutoffMs,
      filesDir,
      // As `npm start` decides (REMIT_ALLOW_PRIVATE_WEBHOOKS unset): a sandbox others can reach
      // would relay their webhooks into this machine's loopback and network, and show the answers.
      privateWebhooks: isLoopbackHost(host),
      image: (image = await sandboxImage()),
      pgliteSettings: SANDBOX_PGLITE,
      // On this thread: a test's few queries gain nothing from a thread of their own, and a worker
      // costs a second JavaScript heap and, under load, seconds more to start (docs/benchmarks.md).
      pgliteThread: false,
      // The image was vacuumed and analyzed when made: no start-up VACUUM (a quarter of a start).
      vacuumAtStart: false,
    });
  const core = await open().catch(async () => {
    // An image that does not load (a cached one cut short, a shipped one another PGlite cannot read) is made again, once.
    dropImage();
    return open();
  });
  // Tables with rows right after the migrations hold seed data; reset() keeps them. The same for
  // every database of one image: found by the first sandbox (it takes a fifth of a start).
  let seedless = seedlessOf.get(image!);
  if (!seedless) {
    seedlessOf.set(image!, (seedless = seedlessTables(core.ctx.db)));
    seedless.catch(() => seedlessOf.delete(image!));
  }
  const tables = await seedless;
  // The /testing controls (controls.ts) reach the sandbox once it is complete, below.
  let target: ControlTarget | undefined;
  const closing = new AbortController();
  const testing = sandboxControls(() => target!, closing.signal);
  const app = await buildApp(core, { ...bundledPages(), rateLimits: generousRateLimits(), testing });
  try {
    url = await app.listen({ port: options.port ?? 0, host });
  } catch (err) {
    await core.close();
    throw err;
  }
  url = url.replace('://[::1]', '://localhost');
  core.ctx.publicUrl = url;
  let signingSecret: string | null = null;
  // Deliveries are signed at the real time they are sent (not the sandbox clock's).
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  try {
    receiver = await startWebhookReceiver(
      () => signingSecret,
      () => new Date(),
      options.webhooksPort,
    );
  } catch (err) {
    await app.close();
    await core.close();
    throw err;
  }
  // Webhooks and messages at once (woken on commit); retries a thousand times sooner than in production.
  // The kit's receiver (on loopback) is reached wherever the sandbox listens.
  const privateOrigins = [new URL(receiver.webhooks.url).origin];
  const startWork = () =>
    startWorkers(core.ctx, {
      webhooks: { retryScale: 0.001, privateOrigins },
      messages: { retryScale: 0.001 },
      retention: false,
      reconcile: false,
    });
  let workers = startWork();

  const created = expectOk(
    'POST /portal/api/credentials',
    await call<{ client_id: string; secret_key: string }>(`${url}/portal/api/credentials`, 'POST'),
  );
  auth = [created.client_id, created.secret_key];
  const credentials: Credentials = { clientId: created.client_id, secretKey: created.secret_key };

  // Registered by core itself: the API refuses a loopback receiver to a sandbox on a network address.
  const register = async () => {
    if (options.webhooks === false) return;
    const kitOwn = { ...core.ctx, privateWebhooks: true };
    signingSecret = (await updateWebhookUrl(kitOwn, credentials.clientId, { webhook_url: receiver.webhooks.url }))
      .signing_secret;
  };
  await register();
  const inbox = sandboxInbox(url, () => auth);

  /** The merchant_key of one of the kit's merchants: remembered, else read with the owner call. */
  const merchantKeyOf = async (merchantId: string) => {
    const known = merchantKeys.get(merchantId);
    if (known) return known;
    const a = await call<{ data: { merchant_key: string } }>(`${url}/api/v1/merchant/${merchantId}`, 'GET', { auth });
    return expectOk(`GET /merchant/${merchantId}`, a).data.merchant_key;
  };

  /** An `ach_return` forced on a debit: once its transaction is committed, the bank returns it. */
  const returnForcedAch = async () => {
    for (const ref of achReturns.splice(0)) {
      for (let i = 0; i < 100; i++) {
        const [row] = await core.ctx.db
          .select({ id: schema.transactions.id, merchantId: schema.transactions.merchantId })
          .from(schema.transactions)
          .where(eq(schema.transactions.gatewayRef, ref));
        if (row) {
          const json = {
            merchant_key: await merchantKeyOf(row.merchantId),
            transaction_id: row.id,
            new_status: 'declined',
          };
          await call(`${url}/api/v1/update-ach`, 'POST', { auth, json });
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const achTimer = setInterval(() => {
    if (achReturns.length > 0) void returnForcedAch().catch(() => {});
  }, 20);
  achTimer.unref();

  let stopped = false;
  const sandbox: Sandbox = {
    url,
    credentials,
    webhooks: receiver.webhooks,
    messages: inbox.messages,
    async createMerchant(fields = {}) {
      const onboarded = expectOk(
        'POST /onboarding',
        await call<{ data: { merchant_key: string; public_key: string } }>(`${url}/api/v1/onboarding`, 'POST', {
          auth,
          json: exampleOnboarding(fields),
        }),
      ).data;
      const list = expectOk(
        'GET /merchant',
        await call<{ data: Array<{ merchant_id: string; public_data: { public_key: string } }> }>(
          `${url}/api/v1/merchant`,
          'GET',
          { auth },
        ),
      ).data;
      const merchantId = list.find((m) => m.public_data.public_key === onboarded.public_key)!.merchant_id;
      expectOk(
        'POST /approve-merchant',
        await call(`${url}/api/v1/approve-merchant`, 'POST', { auth, json: { merchant_id: merchantId } }),
      );
      merchantKeys.set(merchantId, onboarded.merchant_key);
      return { merchantKey: onboarded.merchant_key, merchantId, publicKey: onboarded.public_key };
    },
    async verification(merchantId) {
      const a = await call<{ data: { verification: Verification } }>(`${url}/api/v1/merchant/${merchantId}`, 'GET', {
        auth,
      });
      return expectOk(`GET /merchant/${merchantId}`, a).data.verification;
    },
    async setVerification(merchantId, state) {
      const json = { merchant_key: await merchantKeyOf(merchantId), ...state };
      const a = await call<{ data: { verification: Verification } }>(`${url}/sandbox/merchant-verification`, 'POST', {
        auth,
        json,
      });
      return expectOk('POST /sandbox/merchant-verification', a).data.verification;
    },
    clock: {
      now,
      async advance(by) {
        offsetMs += durationMs(by);
        // What the background sweeps would do at the new time, done now.
        await expireWidgetLinks(core.ctx);
        await purgeNow(core.ctx, retention);
        return now();
      },
    },
    fail: (next) => forcing.force(next),
    async reset() {
      // No delivery of an emptied event in flight while the tables empty.
      await workers.stop();
      const others = sql`delete from clients where id <> ${credentials.clientId}`;
      await core.ctx.db.execute(
        sql.raw(`truncate table ${tables.filter((t) => t !== '"clients"').join(', ')} cascade`),
      );
      await core.ctx.db.execute(others);
      offsetMs = 0;
      merchantKeys.clear();
      forcing.clear();
      achReturns.length = 0;
      receiver.clear();
      inbox.clear();
      workers = startWork();
      await register();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      closing.abort();
      clearInterval(achTimer);
      await workers.stop();
      await app.close();
      await receiver.close();
      await core.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
  target = {
    core,
    clientId: credentials.clientId,
    merchantKeys,
    fail: sandbox.fail,
    queued: forcing.queued,
    reset: sandbox.reset,
    createMerchant: sandbox.createMerchant,
    advance: sandbox.clock.advance,
    takeWebhook: receiver.take,
    takeMessage: inbox.take,
  };
  return sandbox;
}

const seedlessOf = new WeakMap<DatabaseImage, Promise<string[]>>();

/** The tables of the public schema that hold no rows yet (right after the migrations): what reset() empties. */
async function seedlessTables(db: Core['ctx']['db']): Promise<string[]> {
  const names = (
    (await db.execute(
      sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
    )) as unknown as { rows: Array<{ tablename: string }> }
  ).rows.map((r) => r.tablename);
  // Every table's "has rows" in one statement: one round trip, not one a table.
  const probe = names.map((t) => `select '${t}' as t, exists (select 1 from "${t}") as has`).join(' union all ');
  const r = (await db.execute(sql.raw(probe))) as unknown as { rows: Array<{ t: string; has: boolean }> };
  return r.rows.filter((row) => !row.has || row.t === 'clients').map((row) => `"${row.t}"`);
}
