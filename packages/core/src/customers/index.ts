export {
  addCustomer,
  listCustomers,
  getCustomer,
  findCustomer,
  customerToCharge,
  customerView,
  RAW_PAYMENT_DATA_MESSAGE,
  type CustomerRow,
  type CustomerView,
} from './customers.js';
export { requestCard, addCardUrl, cardRequestTexts } from './request-card.js';
export {
  checkCard,
  storeCard,
  storeBankAccount,
  methodsOf,
  methodSummary,
  revealCard,
  revealAccountNumber,
  type PaymentMethodRow,
} from './vault.js';
