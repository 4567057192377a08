import type { Db } from './db/connect.js';
import type { Now } from './clock.js';
import type { Env } from './environment.js';
import type { Vault } from './encryption.js';
import type { Processor } from './processor/connector.js';
import type { CheckDepositProvider } from './check-deposits/provider.js';
import type { CheckImageStore } from './check-deposits/image-store.js';
import type { RateLimiter } from './rate-limits/limiter.js';
import type { Messaging } from './messages/messaging.js';
import type { Operation } from './operation.js';
import type { OutboxSignal } from './outbox-signal.js';
import type { MerchantCache } from './merchants/merchant-cache.js';
import type { AuthCache } from './clients/auth-cache.js';
import type { Replicas } from './db/replicas.js';

/**
 * Everything a core operation needs, made once at start-up by the server or a test. A keyed
 * request's work gets a copy scoped to its operation (docs/architecture.md, "The operation scope"):
 * `db` is then the transaction held for it, and `op` says what the operation carries.
 */
export interface Ctx {
  /** Where statements run: the database, or the open transaction of the operation (`op`). */
  db: Db;
  /**
   * Read replicas (DATABASE_REPLICA_URL), or null. Only reads that may lag go there (lists, single
   * reads, reports, portal views), chosen by the server per request; money and state reads use `db`.
   */
  replicas: Replicas | null;
  /** The operation this context runs: its key, deferred processor calls, outboxes to wake. */
  op: Operation;
  /** Wakes this process's outbox dispatchers once a commit wrote an outbox row. */
  outbox: OutboxSignal;
  /** Merchant lookups kept in memory, checked against the merchants' epoch. */
  merchantCache: MerchantCache;
  /** Clients' secret digests kept in memory, checked against the merchants' epoch. */
  authCache: AuthCache;
  /** Which engine `db` is: PGlite has no autovacuum, so the server does that work itself. */
  storage: 'pglite' | 'postgres';
  env: Env;
  /** Base of pay links and script addresses, without a trailing slash. */
  publicUrl: string;
  vault: Vault;
  processor: Processor;
  /** Where check deposits go (REMIT_CHECK_DEPOSITS); null: none, and deposits are refused. */
  checkDeposits: CheckDepositProvider | null;
  /** Where check images are kept: the database (default) or the operator's bucket. */
  checkImages: CheckImageStore;
  now: Now;
  /** The daily settlement cutoff, milliseconds after 00:00 UTC on the merchant's clock. */
  settlementCutoffMs: number;
  /** The data directory: where check images were kept before they moved into the database. */
  filesDir: string;
  /** How long an unfinished `Idempotency-Key` claim holds the key (default `IDEMPOTENCY_LEASE_MS`). */
  idempotencyLeaseMs?: number;
  /** Counters shared by every process on the database; the server's limits consume from it. */
  rateLimiter: RateLimiter;
  /**
   * Webhook URLs may point at loopback, private and other special-use addresses (a sandbox that
   * only its own machine reaches); otherwise only public hosts, at registration and at connect time.
   */
  privateWebhooks: boolean;
  /** The ports a production webhook URL may name: 443 and those of REMIT_WEBHOOK_PORTS. */
  webhookPorts: readonly number[];
  /** The channels this server can deliver messages on (a transport, or in sandbox the inbox). */
  messaging: Messaging;
  /** Twilio's auth token (TWILIO_AUTH_TOKEN): verifies its delivery status callbacks. */
  twilioAuthToken?: string;
}
