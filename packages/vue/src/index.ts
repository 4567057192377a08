export { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './components.js';
export type {
  Appearance,
  AppearanceVariables,
  PaymentResult,
  RemitConnection,
  RemitReady,
  RemitWidgetError,
  RequestResult,
  Theme,
} from '@remit/wrapper-core/types';
