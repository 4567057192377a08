/**
 * What the widgets (pay modal, request-payment confirmation, transactions table) say to a customer.
 * Plain strings, `{0}` and `{1}` filled in order, so a language travels as JSON: English is in the
 * widget chunk, another language is fetched from `/js/widget-messages/{locale}` when used.
 */
export interface WidgetMessages {
  pay: string;
  close: string;
  form: string;
  opening: string;
  sent: string;
  sentText: string;
  done: string;
  caption: string;
  date: string;
  amount: string;
  card: string;
  status: string;
  loading: string;
  loadFailed: string;
  empty: string;
  retry: string;
  prev: string;
  next: string;
  page: string;
  completed: string;
  refunded: string;
}

export const WIDGET_EN: WidgetMessages = {
  pay: 'Pay {0}',
  close: 'Close payment',
  form: 'Payment form: {0}',
  opening: 'Opening the payment form…',
  sent: 'Payment request sent',
  sentText: 'A text message with a link to pay {0} was sent to the phone number ending in {1}.',
  done: 'Done',
  caption: 'Completed transactions',
  date: 'Date',
  amount: 'Amount',
  card: 'Card',
  status: 'Status',
  loading: 'Loading transactions…',
  loadFailed: 'Could not load transactions: {0}',
  empty: 'No completed transactions yet.',
  retry: 'Retry',
  prev: 'Previous page',
  next: 'Next page',
  page: 'Page {0}',
  completed: 'Completed',
  refunded: 'Refunded',
};

/** Fills `{0}`, `{1}`… of a message in order. */
export const fill = (s: string, ...a: string[]): string => s.replace(/\{(\d)\}/g, (_, i: string) => a[+i]!);

/** `GET /js/widget-messages/{locale}`: the language the server chose for the tag (or the browser's Accept-Language), with its messages. */
export interface WidgetLanguage {
  locale: string;
  /** Intl tag for amounts and dates. */
  intl: string;
  dir: 'ltr' | 'rtl';
  messages: WidgetMessages;
}
