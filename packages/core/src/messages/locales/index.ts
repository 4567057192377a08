import { dirOf, intlTag, LOCALES, type Locale } from '@remit/contract/locales';
import type { Cents } from '../../money.js';
import { mailCatalogue, type MailMessages } from './catalogue.js';

export type { MailMessages };

const MAIL = Object.fromEntries(LOCALES.map((l) => [l, mailCatalogue(l)])) as Record<Locale, MailMessages>;

/** The messages of a language (English when none is given). */
export const mailMessages = (l: Locale = 'en'): MailMessages => MAIL[l];

/** An amount for a message in the language: "$12.50", "12,50 $US", "US$12.50". */
export const mailMoney = (cents: Cents, l: Locale): string =>
  new Intl.NumberFormat(intlTag(l), { style: 'currency', currency: 'USD' }).format(cents / 100);

/** A moment for a receipt in the language, in UTC (the customer's zone is not known): "March 5, 2026 at 3:04 PM UTC". */
export const mailDate = (iso: string, l: Locale): string =>
  `${new Intl.DateTimeFormat(intlTag(l), { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

/** `<html lang dir>` attributes of an email in the language. */
export const htmlLang = (l: Locale): string => `lang="${l}" dir="${dirOf(l)}"`;
