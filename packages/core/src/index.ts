export * from './errors.js';
export * from './money.js';
export * from './ids.js';
export * from './environment.js';
export * from './secret-keys.js';
export * from './encryption.js';
export { KeyMismatchError } from './key-fingerprint.js';
export { resealAll, resealOutcome, SEALED_COLUMNS, type ResealReport } from './key-rotation/reseal.js';
export * from './clock.js';
export type { Ctx } from './context.js';
export { openCore, openDatabase, type Core, type OpenOptions } from './open.js';
export {
  connectDatabase,
  migrationsFolder,
  type DatabaseImage,
  type Db,
  type Tx,
  type Queryable,
  type Database,
} from './db/connect.js';
export {
  buildImage,
  cachedImage,
  cachedImageFile,
  dropCachedImage,
  imageKey,
  migratedImage,
} from './db/migrated-image.js';
export { readiness, type Readiness } from './db/readiness.js';
export { isDatabaseUnavailable, parsePgHosts } from './db/pg-hosts.js';
export type { DatabaseEvent } from './db/pg-pool.js';
export type { Replicas } from './db/replicas.js';
export { holdTransaction, type HeldTransaction } from './db/held-transaction.js';
export { UNSCOPED, inTransaction, type Operation } from './operation.js';
export * as schema from './db/schema.js';
export * from './processor/index.js';
export * from './reconciliation/index.js';
export * from './stripe-events/index.js';
export * from './clients/index.js';
export * from './merchants/index.js';
export * from './webhooks/index.js';
export * from './messages/index.js';
export { startWorkers, workerOptionsFromEnv, messagingOf, type Workers, type WorkerOptions } from './workers.js';
export * from './links/index.js';
export * as fields from './fields.js';
export * from './customers/index.js';
export * from './payments/index.js';
export * from './check-deposits/index.js';
export * from './idempotency/index.js';
export * from './widgets/index.js';
export * from './pay-page/index.js';
export * from './rate-limits/index.js';
export * from './portal/index.js';
export * from './retention/index.js';
export { failedMessages, failedDeliveries, type FailedMessage, type FailedDelivery } from './operator-failures.js';
export * from './embed/index.js';
