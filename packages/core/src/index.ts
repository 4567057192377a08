export * from './errors.js';
export * from './money.js';
export * from './ids.js';
export * from './keys.js';
export * from './clock.js';
export type { Ctx } from './context.js';
export { openCore, type Core, type OpenOptions } from './open.js';
export { connectDatabase, type Db, type Tx, type Queryable, type Database } from './db/connect.js';
export * as schema from './db/schema.js';
export * from './processor/index.js';
export * from './clients/index.js';
export * from './merchants/index.js';
export * from './events/index.js';
export * from './messages/index.js';
export { startWorkers, workerOptionsFromEnv, type Workers, type WorkerOptions } from './workers.js';
export * from './messages/templates.js';
export * from './links/index.js';
export * as fields from './fields.js';
export * from './customers/index.js';
export * from './payments/index.js';
export * from './idempotency/index.js';
export {
  listTransactions,
  getTransaction,
  listTransactionsInput,
  getTransactionInput,
  toListItem,
  toDetail,
  TRANSACTION_NOT_FOUND,
  type ListTransactionsInput,
  type GetTransactionInput,
  type TransactionListItem,
  type TransactionDetail,
  type TransactionRow,
} from './payments/transactions.js';
