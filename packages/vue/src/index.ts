export { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './components.js';
export type { PaymentResult, RemitConnection, RemitWidgetError, RequestResult } from '@remit/wrapper-core/types';
