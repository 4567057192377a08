export {
  purgeBatch,
  purgeNow,
  startPurge,
  DEFAULT_RETENTION,
  PURGE_BATCH,
  PURGED_TABLES,
  type Retention,
  type PurgeCounts,
  type PurgedTable,
} from './purge.js';
