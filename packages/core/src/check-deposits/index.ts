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
