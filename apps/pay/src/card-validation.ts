import type { CardInput } from '@remit/contract';
import {
  cardLayout,
  cvcValid,
  EXPIRY_PAST,
  expiryProblem,
  luhnValid,
  postalCodeValid,
} from '@remit/contract/card-rules';
import { onlyDigits } from './card-format.js';
import type { Errors } from './form.js';
import type { Messages } from './i18n.js';

export type CardField = 'number' | 'expiry' | 'cvc' | 'name' | 'zip';
export type CardValues = Record<CardField, string>;
export const CARD_FIELDS: CardField[] = ['number', 'expiry', 'cvc', 'name', 'zip'];
export const emptyCard = () => Object.fromEntries(CARD_FIELDS.map((f) => [f, ''])) as CardValues;

/** "MM / YY" → month and four-digit year, or null when not that shape. */
export function parseExpiry(v: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2})\s*$/.exec(v);
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(m[2]) };
}

export function validateCard(v: CardValues, m: Messages, now = new Date()): Errors<CardField> {
  const e: Errors<CardField> = {};
  const digits = onlyDigits(v.number);
  const brand = cardLayout(digits);
  if (!digits) e.number = m.reqCardNumber;
  else if (!brand.lengths.includes(digits.length) || !luhnValid(digits)) e.number = m.badCardNumber;

  const exp = parseExpiry(v.expiry);
  const expiry = exp && expiryProblem(exp.month, exp.year, now);
  if (!v.expiry.trim()) e.expiry = m.reqExpiry;
  else if (!exp || expiry) e.expiry = expiry === EXPIRY_PAST ? m.pastExpiry : m.badExpiry;

  const cvc = v.cvc.trim();
  if (!cvc) e.cvc = m.reqCvc;
  else if (!cvcValid(cvc, digits)) e.cvc = m.badCvc(brand.cvcLength);

  if (!v.name.trim()) e.name = m.reqName;
  if (!v.zip.trim()) e.zip = m.reqZip;
  else if (!postalCodeValid(v.zip.trim())) e.zip = m.badZip;
  return e;
}

/** The values as the pay call takes them (only after validateCard found nothing). */
export function toCardInput(v: CardValues): CardInput {
  const exp = parseExpiry(v.expiry)!;
  return {
    number: onlyDigits(v.number),
    exp_month: exp.month,
    exp_year: exp.year,
    cvc: v.cvc.trim(),
    name: v.name.trim(),
    zip: v.zip.trim(),
  };
}
