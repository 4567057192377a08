/**
 * Test support, for tests and benches only (`@remit/core/testing`; not part of the main entry):
 * throwaway databases and the webhook receiver other packages' tests use.
 */
export * from './test-database.js';
export {
  countOverlaps,
  deliveriesById,
  eventually,
  insertTestMerchant,
  onPostgres,
  openTestCore,
  recordThousandEvents,
  startReceiver,
  type Behaviour,
  type Received,
  type Receiver,
  type TestCore,
} from './webhooks/test-support.js';
