'use client';
export {
  CompletedTransactions,
  GetPaymentPage,
  RequestPaymentonClick,
  type CompletedTransactionsProps,
  type GetPaymentPageProps,
  type RemitButtonProps,
  type RequestPaymentonClickProps,
} from './components.js';
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
