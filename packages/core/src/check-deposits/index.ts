export {
  CHECK_DEPOSIT_PROVIDERS,
  createCheckDepositProvider,
  createCheckDepositSimulator,
  type CheckDepositInput,
  type CheckDepositProvider,
  type CheckImage,
} from './provider.js';
export { checkDepositAccount, recordCheckDepositAccount } from './accounts.js';
export { moveCheckImageFiles } from './images.js';
export { databaseCheckImageStore, type CheckImageStore, type StagedCheckImages } from './image-store.js';
export { createS3CheckImageStore, type S3CheckImageSettings } from './s3-store.js';
