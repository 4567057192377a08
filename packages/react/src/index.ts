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
export type { PaymentResult, RemitConnection, RemitWidgetError, RequestResult } from '@remit/wrapper-core/types';
