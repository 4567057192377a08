import { resolve } from 'node:path';
import { sealLegacyOwnerInfo } from './merchants/owner-info.js';
import { connectDatabase, type ConnectOptions, type Database } from './db/connect.js';
import { MerchantCache } from './merchants/merchant-cache.js';
import { AuthCache } from './clients/auth-cache.js';
import { OutboxSignal } from './outbox-signal.js';
import { UNSCOPED } from './operation.js';
import { startMaintenance } from './db/maintenance.js';
import { systemNow, type Now } from './clock.js';
import type { Ctx } from './context.js';
import { Vault } from './encryption.js';
import { checkKeyFingerprint } from './key-fingerprint.js';
import type { Env } from './environment.js';
import type { Processor } from './processor/connector.js';
import { createProcessor } from './processor/select.js';
import { createCheckDepositProvider, type CheckDepositProvider } from './check-deposits/provider.js';
import { moveCheckImageFiles } from './check-deposits/images.js';
import { databaseCheckImageStore, type CheckImageStore } from './check-deposits/image-store.js';
import { createRateLimiter } from './rate-limits/limiter.js';
import { defaultMessaging, type Messaging } from './messages/channels.js';

export interface OpenOptions {
  env: Env;
  publicUrl: string;
  encryptionKey: Buffer;
  /** During a key rotation: the key before `encryptionKey`, used only to open what it sealed. */
  previousEncryptionKey?: Buffer | null;
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite in memory: start from this migrated image instead of an empty database (ConnectOptions.image). */
  image?: ConnectOptions['image'];
  /** PGlite: server settings (ConnectOptions.pgliteSettings). */
  pgliteSettings?: ConnectOptions['pgliteSettings'];
  /** PGlite: vacuum and analyze every table at start (default true); false for a database loaded from an image vacuumed when it was made. */
  vacuumAtStart?: boolean;
  /** PGlite: on a worker thread (default) or on the calling thread (ConnectOptions.pgliteThread). */
  pgliteThread?: boolean;
  /** The data directory whose check images (of earlier versions) move into the database at start; defaults to the PGlite data directory, else ./.remit. */
  filesDir?: string;
  poolSize?: number;
  directUrl?: ConnectOptions['directUrl'];
  replicaUrls?: ConnectOptions['replicaUrls'];
  replicaMaxLagMs?: ConnectOptions['replicaMaxLagMs'];
  onDatabaseEvent?: ConnectOptions['onDatabaseEvent'];
  logger?: ConnectOptions['logger'];
  onStatement?: ConnectOptions['onStatement'];
  onDatabaseLost?: ConnectOptions['onDatabaseLost'];
  processor?: Processor;
  /** Where check deposits go; unset: the simulator in sandbox, none in production. */
  checkDeposits?: CheckDepositProvider | null;
  /** Where check images are kept; unset: the database. */
  checkImageStore?: CheckImageStore;
  now?: Now;
  /** The daily settlement cutoff in milliseconds after 00:00 UTC (`parseCutoff`); default midnight. */
  settlementCutoffMs?: number;
  /** How long an unfinished `Idempotency-Key` claim holds the key; default 60 s. */
  idempotencyLeaseMs?: number;
  /** Webhooks to loopback and private addresses (Ctx.privateWebhooks); default: in sandbox yes, in production no. */
  privateWebhooks?: boolean;
  /** Ports production webhook URLs may name besides 443. */
  webhookPorts?: readonly number[];
  /** The channels messages can go out on; default: both in sandbox (the inbox), none in production. */
  messaging?: Messaging;
  /** Verifies Twilio's status callbacks (TWILIO_AUTH_TOKEN); unset, the callback route is 404. */
  twilioAuthToken?: string;
}

export interface Core {
  ctx: Ctx;
  database: Database;
  /** Check images this start moved from the data directory into the database, and the files it left. */
  movedCheckImages: { moved: number; left: string[] };
  close(): Promise<void>;
}

/** Connects and migrates (the merchant cache and the outbox signal are fields of the context, not of the database). */
export async function openDatabase(opts: ConnectOptions): Promise<Database> {
  return connectDatabase(opts);
}

/**
 * Connects, migrates and assembles the context every core operation takes. Refuses (KeyMismatchError)
 * unless given every key the database's values are sealed with (the key, and the previous one while rotating).
 */
export async function openCore(opts: OpenOptions): Promise<Core> {
  const vault = new Vault(opts.encryptionKey, opts.previousEncryptionKey);
  const database = await openDatabase(opts);
  try {
    await checkKeyFingerprint(database.db, vault);
  } catch (err) {
    await database.close();
    throw err;
  }
  const ctx: Ctx = {
    db: database.db,
    replicas: database.replicas ?? null,
    op: UNSCOPED,
    outbox: new OutboxSignal(),
    merchantCache: new MerchantCache(),
    authCache: new AuthCache(),
    storage: database.kind,
    env: opts.env,
    publicUrl: opts.publicUrl.replace(/\/+$/, ''),
    vault,
    // Unset: the simulator in sandbox; in production the processor that refuses every payment.
    processor: opts.processor ?? createProcessor(undefined, opts.env),
    checkDeposits:
      opts.checkDeposits === undefined ? createCheckDepositProvider(undefined, opts.env) : opts.checkDeposits,
    checkImages: opts.checkImageStore ?? databaseCheckImageStore,
    now: opts.now ?? systemNow,
    settlementCutoffMs: opts.settlementCutoffMs ?? 0,
    filesDir: resolve(opts.filesDir ?? opts.dataDir ?? '.remit'),
    idempotencyLeaseMs: opts.idempotencyLeaseMs,
    rateLimiter: createRateLimiter(database.db),
    privateWebhooks: opts.privateWebhooks ?? opts.env === 'sandbox',
    webhookPorts: [...new Set([443, ...(opts.webhookPorts ?? [])])],
    messaging: opts.messaging ?? defaultMessaging(opts.env),
    twilioAuthToken: opts.twilioAuthToken,
  };
  // Rows from before the owner's personal fields were encrypted are sealed now.
  await sealLegacyOwnerInfo(ctx);
  // Check images an earlier version kept as files join the database, once (servers take turns).
  const movedCheckImages = await moveCheckImageFiles(ctx);
  const maintenance = startMaintenance(database, { vacuumAtStart: opts.vacuumAtStart });
  return {
    ctx,
    database,
    movedCheckImages,
    close: async () => {
      maintenance.stop();
      await database.close();
    },
  };
}
