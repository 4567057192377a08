export { feeFor, type Fee, type Pricing } from './fees.js';
export {
  chargeCustomer,
  chargeView,
  chargeMessage,
  paymentSuccessData,
  requireApproved,
  MERCHANT_NOT_APPROVED_MESSAGE,
  MERCHANT_SUSPENDED_MESSAGE,
  ACH_BRAND,
  type ChargeView,
} from './charges.js';
export { IS_STATUS, TRANSITIONS, nextState, stateOf, type TxnState, type PaymentEvent } from './state.js';
export { toMoneyRecord } from './records.js';
export { voidTransaction, SETTLED_VOID_MESSAGE } from './voids.js';
export { refundTransaction, REFUND_MESSAGES, FULL_REFUND_VOID_AGE_MS } from './refunds.js';
export { updatePreauth, capturePreauth, voidPreauth, AMOUNT_MISMATCH_MESSAGE } from './preauth.js';
export { updateAch } from './ach.js';
export {
  submitDeposit,
  parseDepositUpload,
  type ParsedDeposit,
  imageType,
  tooLarge,
  ACH_ACCOUNT_NOT_FOUND_MESSAGE,
  type DepositUpload,
} from './deposits.js';
export { settleNow, settleDue, sandboxOnly, isSettled, lastCutoff, parseCutoff } from './settlement.js';
export { advanceClock } from './sandbox-clock.js';
export {
  listTransactions,
  getTransaction,
  toListItem,
  toDetail,
  TRANSACTION_NOT_FOUND,
  type TransactionRow,
} from './transactions.js';
export { PROCESSING_MESSAGE, PROCESSOR_NEVER_MADE_MESSAGE, ABSENT_AFTER_MS } from './processing-charges.js';
export { settleRefusedCall, refusedCalls, refusalCounts, type Refusal } from './refused-calls.js';
