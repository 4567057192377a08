/**
 * Card and bank account rules, written once: the pay page checks as the customer types and the core
 * checks again before the processor sees anything. No zod and nothing from Node, so the pay page
 * imports this file alone (`@remit/contract/card-rules`) for a few hundred bytes.
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
  Discover: { iin: '6011 622126-622925 644-649 65', name: 'Discover', groups: [4, 4, 4, 4, 3], lengths: [16, 19], cvcLength: 3 },
};
/** Any brand not yet known: every length a card number can have. */
const UNKNOWN: CardLayout = { name: '', groups: [4, 4, 4, 4, 3], lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvcLength: 3 };

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
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** ABA routing number checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaRoutingValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number) as number[];
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}
