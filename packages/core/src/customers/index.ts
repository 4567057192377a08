export { addCustomer, listCustomers, getCustomer, findCustomer, customerView, RAW_PAYMENT_DATA_MESSAGE, type CustomerRow, type CustomerView } from './customers.js';
export { requestCard, addCardUrl, cardRequestTexts } from './request-card.js';
export {
  checkCard,
  storeCard,
  storeBankAccount,
  defaultPaymentMethod,
  methodsOf,
  methodSummary,
  revealCard,
  revealAccountNumber,
  type PaymentMethodRow,
} from './vault.js';
export {
  addCustomerInput,
  listCustomersInput,
  cardInput,
  bankAccountInput,
  merchantKeyInput,
  customerPathParams,
  CUSTOMERS_PER_PAGE,
  type AddCustomerInput,
  type ListCustomersInput,
  type CardInput as StoredCardInput,
  type BankAccountInput,
} from './schemas.js';
