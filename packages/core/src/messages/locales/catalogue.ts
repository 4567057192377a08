import type { Locale } from '@remit/contract/locales';

/**
 * What the messages a customer receives say (payment request SMS and email, receipt, card
 * request), in one language. Whole sentences with their parts as arguments, so each language
 * orders them as it speaks. Every language has every message: one missing fails the typecheck.
 */
export interface MailMessages {
  /** Opens an SMS: "Hi Ada, ". */
  smsHi: (name: string) => string;
  /** Opens an email: "Hi Ada,". */
  hi: (name: string) => string;
  hello: string;
  /** The request SMS after the greeting. `forWhat`: the description, already shortened. */
  requestSms: (business: string, amount: string, preauth: boolean, forWhat: string | undefined, link: string) => string;
  requestSubject: (business: string, amount: string, preauth: boolean) => string;
  requested: (business: string, amount: string, preauth: boolean) => string;
  /** Heads the link: "Pay securely here:". */
  secureHere: (preauth: boolean) => string;
  button: (amount: string, preauth: boolean) => string;
  orOpen: string;
  notExpecting: string;
  amount: string;
  for: string;
  order: string;
  invoice: string;
  transaction: string;
  authCode: string;
  date: string;
  card: string;
  bankAccount: string;
  endingIn: (brand: string, last4: string) => string;
  receiptSubject: (business: string, amount: string, authorized: boolean) => string;
  receiptWhat: (status: 'succeeded' | 'authorized' | 'pending', amount: string, business: string) => string;
  keep: string;
  cardSms: (name: string, business: string, link: string) => string;
  cardSubject: (business: string) => string;
  cardAsk: (business: string) => string;
  addHere: string;
  addButton: string;
}

export type MailCatalogue = Record<Locale, MailMessages>;

export const en: MailMessages = {
  smsHi: (n) => `Hi ${n}, `,
  hi: (n) => `Hi ${n},`,
  hello: 'Hello,',
  requestSms: (b, a, pre, f, link) =>
    `${b} requests ${pre ? `an authorization of ${a}` : `a payment of ${a}`}${f ? ` for ${f}` : ''}. ${pre ? 'Authorize' : 'Pay'} securely: ${link}`,
  requestSubject: (b, a, pre) => `${pre ? 'Authorization' : 'Payment'} request from ${b}: ${a}`,
  requested: (b, a, pre) => `${b} has requested ${pre ? `an authorization of ${a}` : `a payment of ${a}`}.`,
  secureHere: (pre) => `${pre ? 'Authorize' : 'Pay'} securely here:`,
  button: (a, pre) => `${pre ? 'Authorize' : 'Pay'} ${a}`,
  orOpen: 'Or open this link:',
  notExpecting: 'If you were not expecting this request, you can ignore this email.',
  amount: 'Amount',
  for: 'For',
  order: 'Order',
  invoice: 'Invoice',
  transaction: 'Transaction',
  authCode: 'Authorization code',
  date: 'Date',
  card: 'Card',
  bankAccount: 'Bank account',
  endingIn: (b, l) => `${b} ending ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'Authorization' : 'Receipt'} from ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `You authorized ${a} to ${b}. The amount is held on your card, not charged yet.`
      : s === 'pending'
        ? `Your bank payment of ${a} to ${b} was submitted; it completes when your bank approves the debit.`
        : `You paid ${a} to ${b}.`,
  keep: 'Keep this email for your records.',
  cardSms: (n, b, link) => `Hi ${n}, ${b} asks you to add a card for future payments. Add it securely: ${link}`,
  cardSubject: (b) => `${b} asks you to add a payment card`,
  cardAsk: (b) => `${b} asks you to add a card to pay them in the future.`,
  addHere: 'Add it securely here:',
  addButton: 'Add your card securely',
};
