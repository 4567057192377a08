import { MESSAGES } from '@remit/contract/catalogue/messages';
import type { Locale } from '@remit/contract/locales';
import { fill } from '@remit/contract/translate';

/**
 * What the messages a customer receives say (payment request SMS and email, receipt, card
 * request), in one language: the texts of `translations/<tag>/messages.json` (one key per variant,
 * so each language words each as it speaks), with their parts filled in.
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

const RECEIPT = { succeeded: 'receiptSucceeded', authorized: 'receiptAuthorized', pending: 'receiptPending' } as const;

/** The messages of a language, from its catalogue. */
export function mailCatalogue(l: Locale): MailMessages {
  const c = MESSAGES[l];
  const pre = (preauth: boolean) => (preauth ? 'Preauth' : '');
  return {
    smsHi: (name) => fill(c.smsHi, { name }),
    hi: (name) => fill(c.hi, { name }),
    hello: c.hello,
    requestSms: (business, amount, preauth, forWhat, link) =>
      fill(c[`requestSms${pre(preauth)}${forWhat ? 'For' : ''}`], { business, amount, for: forWhat, link }),
    requestSubject: (business, amount, preauth) => fill(c[`requestSubject${pre(preauth)}`], { business, amount }),
    requested: (business, amount, preauth) => fill(c[`requested${pre(preauth)}`], { business, amount }),
    secureHere: (preauth) => c[`secureHere${pre(preauth)}`],
    button: (amount, preauth) => fill(c[`button${pre(preauth)}`], { amount }),
    orOpen: c.orOpen,
    notExpecting: c.notExpecting,
    amount: c.amount,
    for: c.for,
    order: c.order,
    invoice: c.invoice,
    transaction: c.transaction,
    authCode: c.authCode,
    date: c.date,
    card: c.card,
    bankAccount: c.bankAccount,
    endingIn: (brand, last4) => fill(c.endingIn, { brand, last4 }),
    receiptSubject: (business, amount, authorized) =>
      fill(c[authorized ? 'receiptSubjectAuthorized' : 'receiptSubject'], { business, amount }),
    receiptWhat: (status, amount, business) => fill(c[RECEIPT[status]], { amount, business }),
    keep: c.keep,
    cardSms: (name, business, link) => fill(c.cardSms, { name, business, link }),
    cardSubject: (business) => fill(c.cardSubject, { business }),
    cardAsk: (business) => fill(c.cardAsk, { business }),
    addHere: c.addHere,
    addButton: c.addButton,
  };
}
