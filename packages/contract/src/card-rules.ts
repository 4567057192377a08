/**
 * Field rules, written once: card (number, expiry, CVC), bank account, postal code and phone. The
 * pay page and the widgets check as the customer types; the API's schemas and the core check again
 * with the same functions. No zod and nothing from Node, so a page imports this file alone
 * (`@remit/contract/card-rules`) for a few hundred bytes. Why each rule is what it is:
 * docs/concepts.md, "Field rules".
 */

export type CardBrand = 'Visa' | 'Mastercard' | 'Amex' | 'Discover';

/** How a brand's numbers look: its name, digit groups as shown while typing, lengths and CVC length. */
export interface CardLayout {
  name: string;
  groups: number[];
  lengths: number[];
  cvcLength: number;
}

/**
 * Each brand's issuer prefix ranges (IIN) as the networks publish them, `first-last` inclusive:
 * Mastercard's 2-series is 2221–2720; Discover's China UnionPay co-brand is 622126–622925.
 */
const BRANDS: Record<CardBrand, CardLayout & { iin: string }> = {
  Visa: { iin: '4', name: 'Visa', groups: [4, 4, 4, 4, 3], lengths: [13, 16, 19], cvcLength: 3 },
  Mastercard: { iin: '51-55 2221-2720', name: 'Mastercard', groups: [4, 4, 4, 4], lengths: [16], cvcLength: 3 },
  Amex: { iin: '34 37', name: 'American Express', groups: [4, 6, 5], lengths: [15], cvcLength: 4 },
  Discover: {
    iin: '6011 622126-622925 644-649 65',
    name: 'Discover',
    groups: [4, 4, 4, 4, 3],
    lengths: [16, 19],
    cvcLength: 3,
  },
};
/** Any brand not yet known: every length a card number can have. */
const UNKNOWN: CardLayout = {
  name: '',
  groups: [4, 4, 4, 4, 3],
  lengths: [12, 13, 14, 15, 16, 17, 18, 19],
  cvcLength: 3,
};

/** The brand of a card number's leading digits; null while too few digits are typed to tell, or none matches. */
export function cardBrand(digits: string): CardBrand | null {
  for (const brand in BRANDS) {
    for (const range of BRANDS[brand as CardBrand].iin.split(' ')) {
      const [first, last = first] = range.split('-') as [string, string?];
      const prefix = digits.slice(0, first.length);
      // Digit strings of the same length compare as their numbers do.
      if (prefix.length === first.length && prefix >= first && prefix <= last) return brand as CardBrand;
    }
  }
  return null;
}

/** The layout of the brand the digits start with (an empty name when none is known yet). */
export function cardLayout(digits: string): CardLayout {
  const brand = cardBrand(digits);
  return brand ? BRANDS[brand] : UNKNOWN;
}

/** A card number's shape: 12–19 digits whose last is the Luhn (mod 10) check digit. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    // Every second digit from the right is doubled; a two-digit result counts as its digit sum.
    const d = +number[number.length - 1 - i]! * (1 + (i % 2));
    sum += d > 9 ? d - 9 : d;
  }
  return /^\d{12,19}$/.test(number) && sum % 10 === 0;
}

/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaRoutingValid(routing: string): boolean {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += +routing[i]! * +'371'[i % 3]!;
  return /^\d{9}$/.test(routing) && sum % 10 === 0;
}

/** A bank account number: 4 to 17 digits, the lengths US banks issue. */
export const accountNumberValid = (account: string): boolean => /^\d{4,17}$/.test(account);

/** The CVC a card's brand prints: 4 digits on American Express, 3 on every other. */
export const cvcValid = (cvc: string, number: string): boolean =>
  /^\d+$/.test(cvc) && cvc.length === cardLayout(number).cvcLength;

/** Latest expiry accepted, in years from now: a card valid longer is a typo. */
export const MAX_EXPIRY_YEARS = 20;

/** What `expiryProblem` answers: nothing wrong (0), a month gone by, or a year too far ahead. */
export const EXPIRY_PAST = 1;
export const EXPIRY_TOO_FAR = 2;

/**
 * Why a card's expiry (month 1–12, four-digit year) cannot be used at `now`: 0 when it can. A card
 * is good through the last day of its month. Months are counted in UTC, on the page as on the
 * server, so both answer alike at every instant (docs/concepts.md).
 */
export function expiryProblem(month: number, year: number, now: Date): 0 | typeof EXPIRY_PAST | typeof EXPIRY_TOO_FAR {
  const thisYear = now.getUTCFullYear();
  return year * 12 + month < thisYear * 12 + now.getUTCMonth() + 1
    ? EXPIRY_PAST
    : year > thisYear + MAX_EXPIRY_YEARS
      ? EXPIRY_TOO_FAR
      : 0;
}

/**
 * A postal code (trimmed), of any country: 3 to 10 letters, digits, spaces or dashes, starting with
 * a letter or digit. A card's billing code takes this alone (cards from any country pay).
 */
export const postalCodeValid = (code: string): boolean => /^[A-Za-z0-9][A-Za-z0-9 -]{2,9}$/.test(code);

/** Where the address's country is known to be the US (onboarding's), the postal code is a ZIP code "NNNNN" or "NNNNN-NNNN". */
export const usZipValid = (code: string): boolean => /^\d{5}(-\d{4})?$/.test(code);

/** A phone number as SMS is sent to it: a 10-digit US number in its common spellings, or E.164 → E.164; null when neither. */
export function normalizePhone(v: string): string | null {
  const s = v.trim();
  if (/^\+[1-9]\d{7,14}$/.test(s) && !s.startsWith('+1')) return s;
  const m = /^(?:\+?1)?([2-9]\d{9})$/.exec(s.replace(/[\s().-]/g, ''));
  return m ? `+1${m[1]}` : null;
}
