export { feeFor, type Fee, type Pricing } from './fees.js';
export {
  chargeCustomer,
  chargeInput,
  chargeView,
  chargeMessage,
  paymentSuccessData,
  requireApproved,
  MERCHANT_NOT_APPROVED_MESSAGE,
  ACH_BRAND,
  type ChargeInput,
  type ChargeView,
} from './charges.js';
export { IS_STATUS, TRANSITIONS, nextState, stateOf, type TxnState, type PaymentEvent } from './state.js';
export { moneyRecordSchema, toMoneyRecord, type MoneyRecord } from './records.js';
export { voidInput, voidTransaction, SETTLED_VOID_MESSAGE, type VoidInput } from './voids.js';
export { refundInput, refundTransaction, REFUND_MESSAGES, FULL_REFUND_VOID_AGE_MS, type RefundInput } from './refunds.js';
export {
  updatePreauthInput,
  preauthIdInput,
  preauthUpdateResultSchema,
  preauthCaptureResultSchema,
  updatePreauth,
  capturePreauth,
  voidPreauth,
  AMOUNT_MISMATCH_MESSAGE,
  type UpdatePreauthInput,
  type PreauthIdInput,
} from './preauth.js';
export { updateAchInput, updateAch, type UpdateAchInput } from './ach.js';
export {
  submitDeposit,
  parseDepositUpload,
  type ParsedDeposit,
  imageType,
  tooLarge,
  MAX_CHECK_IMAGE_BYTES,
  DEPOSIT_PARTS,
  ACH_ACCOUNT_NOT_FOUND_MESSAGE,
  type DepositUpload,
} from './deposits.js';
export { settleNow, settleDue, sandboxOnly, settleInput, isSettled, lastCutoff, parseCutoff, type SettleInput } from './settlement.js';
export { advanceClock, advanceClockInput, MAX_ADVANCE_HOURS, type AdvanceClockInput } from './sandbox-clock.js';
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
} from './transactions.js';
