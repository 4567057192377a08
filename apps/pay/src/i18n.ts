import { signal } from '@preact/signals';
import { dirOf, intlTag, type Locale } from '@remit/contract/locales';

export type { Locale };

/** English, in the page's script; every other language is a chunk of its own (messages-<locale>.ts). */
const en = {
  title: 'Pay',
  payTo: (m: string) => `Pay ${m}`,
  order: 'Order',
  invoice: 'Invoice',
  amount: 'Amount',
  tax: 'Tax',
  surcharge: 'Surcharge',
  discount: 'Discount',
  subtotal: 'Subtotal',
  fee: 'Processing fee',
  total: 'Total',
  summary: 'Order summary',
  method: 'Payment method',
  card: 'Card',
  bank: 'Bank account',
  cardNumber: 'Card number',
  expiry: 'Expiry date',
  expiryHint: 'MM / YY',
  cvc: 'Security code',
  cvcHint: (n: number) => `${n} digits`,
  nameOnCard: 'Name on card',
  zip: 'ZIP code',
  holderName: 'Account holder name',
  routing: 'Routing number',
  account: 'Account number',
  accountConfirm: 'Confirm account number',
  accountType: 'Account type',
  checking: 'Checking',
  savings: 'Savings',
  achAuthTitle: 'Debit authorization',
  achAuth: (merchant: string, amount: string, date: string) =>
    `By checking this box I authorize ${merchant} to debit ${amount} from the bank account above once, on or after ${date}, through the ACH network. If the debit is returned I may be charged a fee as the law allows. I can revoke this authorization by contacting ${merchant} before the debit is made.`,
  achAccept: 'I authorize this debit',
  pay: (amount: string) => `Pay ${amount}`,
  authorize: (amount: string) => `Authorize ${amount}`,
  processing: 'Processing…',
  noChargeYet: 'You will not be charged until you select Pay.',
  preauthNote: 'This places a hold on your card; the merchant charges it later.',
  errorSummary: 'There is a problem',
  // validation
  reqCardNumber: 'Enter the card number',
  badCardNumber: 'Enter a valid card number',
  reqExpiry: 'Enter the expiry date',
  badExpiry: 'Enter the expiry date as MM / YY',
  pastExpiry: 'This card has expired',
  reqCvc: 'Enter the security code',
  badCvc: (n: number) => `Enter the ${n}-digit security code`,
  reqName: 'Enter the name on the card',
  reqZip: 'Enter the ZIP code',
  badZip: 'Enter a 5-digit ZIP code',
  reqHolder: 'Enter the account holder name',
  reqRouting: 'Enter the routing number',
  badRouting: 'Enter a valid 9-digit routing number',
  reqAccount: 'Enter the account number',
  badAccount: 'Enter an account number of 4 to 17 digits',
  mismatchAccount: 'The account numbers do not match',
  reqAuth: 'Accept the debit authorization to pay by bank account',
  // outcomes
  declinedTitle: 'Payment declined',
  tryAnother: 'Check the details or use another card, then try again.',
  threeDsFailed: 'Your bank could not verify this payment (3-D Secure). Try again, or use another card.',
  networkError: 'We could not reach the payment server. Check your connection and try again; you will not be charged twice.',
  confirmingTitle: "We're confirming your payment",
  confirmingText: "Your card processor hasn't answered yet. Don't pay again: this page updates by itself when it does.",
  checkAgain: 'Check again',
  challengeTitle: '3-D Secure verification',
  challengeText: (brand: string, last4: string) =>
    `Your bank asks you to confirm this payment with your ${brand} ending in ${last4}. (Sandbox: choose the outcome.)`,
  complete: 'Complete',
  fail: 'Fail',
  paidTitle: 'Payment successful',
  authorizedTitle: 'Payment authorized',
  pendingTitle: 'Bank payment submitted',
  pendingText: 'Your bank debit is pending; it usually completes in 1–3 business days.',
  authorizedText: 'The amount is held on your card; the merchant will charge it.',
  receipt: 'Receipt',
  paidWith: 'Paid with',
  endingIn: (brand: string, last4: string) => `${brand} ending in ${last4}`,
  authCode: 'Authorization code',
  transactionId: 'Transaction ID',
  date: 'Date',
  emailed: (to: string) => `A copy of this receipt was sent to ${to}.`,
  print: 'Print receipt',
  cancelledTitle: 'This payment link was cancelled',
  cancelledText: 'The merchant cancelled this link, so it can no longer be paid. Contact the merchant if you still want to pay.',
  notFoundTitle: 'Payment link not found',
  notFoundText: 'Check that the address is exactly the one you were sent. If it is, the link may have been mistyped by the sender: contact the merchant.',
  pendingMerchantTitle: 'This merchant cannot take payments yet',
  pendingMerchantText: 'The merchant’s account is still being approved. Try again later or contact the merchant.',
  addCardTitle: (m: string) => `Save a card with ${m}`,
  addCardIntro: (name: string, m: string) =>
    `Hi ${name}, add a card for ${m} to charge later. You will not be charged now.`,
  saveCard: 'Save card',
  savedTitle: 'Card saved',
  savedText: (card: string, m: string) => `Your ${card} is saved with ${m}. You have not been charged.`,
  secure: 'Secure payment',
  cardBrand: (b: string) => `Card type: ${b}`,
};
export type Messages = typeof en;

/** English is in the page's script; another language is added once its chunk has loaded. */
const MESSAGES: Partial<Record<Locale, Messages>> = { en };

/** The server renderer has every language in it (ssr.tsx) and adds them here itself. */
export const addMessages = (l: Locale, m: Messages) => void (MESSAGES[l] = m);

type Chunk = () => Promise<{ default: Messages }>;
/** Each language its own chunk, so the English page's script stays in its 20 KB budget. */
const CHUNKS: Record<Exclude<Locale, 'en'>, Chunk> = {
  es: () => import('./messages-es.js'),
  fr: () => import('./messages-fr.js'),
  de: () => import('./messages-de.js'),
  it: () => import('./messages-it.js'),
  'pt-BR': () => import('./messages-pt-BR.js'),
  nl: () => import('./messages-nl.js'),
  pl: () => import('./messages-pl.js'),
  sv: () => import('./messages-sv.js'),
  ja: () => import('./messages-ja.js'),
  'zh-Hans': () => import('./messages-zh-Hans.js'),
  ar: () => import('./messages-ar.js'),
};

/** Fetches a language the page does not hold yet. The page awaits it before its first render: no English flash. */
export async function loadLocale(l: Locale): Promise<void> {
  if (!MESSAGES[l] && l !== 'en') addMessages(l, (await CHUNKS[l]()).default);
}

export const locale = signal<Locale>('en');
/** Intl locale tag of the page's locale, for amounts and dates. */
export const intlLocale = () => intlTag(locale.value);
/** Sets `<html lang dir>` for the page's locale (Arabic: right to left). */
export function applyLocale(d: Document): void {
  d.documentElement.lang = locale.value;
  d.documentElement.dir = dirOf(locale.value);
}
/** The locale's messages; English until a language's chunk is loaded. */
export const t = (): Messages => MESSAGES[locale.value] ?? en;
