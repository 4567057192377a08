/**
 * Card and bank account rules, written once: the pay page checks as the customer types and the core
 * checks again before the processor sees anything. No zod and nothing from Node, so the pay page
 * imports this file alone (`@remit/contract/card-rules`) for a few hundred bytes.
 */

export type CardBrand = 'Visa' | 'Mastercard' | 'Amex' | 'Discover';

/**
 * Issuer prefix ranges (IIN), first and last prefix inclusive, both with the same number of digits.
 * Mastercard's 2-series is 2221–2720; Discover's China UnionPay co-brand is 622126–622925.
 */
const RANGES: Array<[from: string, to: string, brand: CardBrand]> = [
  ['4', '4', 'Visa'],
  ['51', '55', 'Mastercard'],
  ['2221', '2720', 'Mastercard'],
  ['34', '34', 'Amex'],
  ['37', '37', 'Amex'],
  ['6011', '6011', 'Discover'],
  ['622126', '622925', 'Discover'],
  ['644', '649', 'Discover'],
  ['65', '65', 'Discover'],
];

/** The brand of a card number's leading digits; null while too few digits are typed to tell, or none matches. */
export function cardBrand(digits: string): CardBrand | null {
  for (const [from, to, brand] of RANGES) {
    const prefix = digits.slice(0, from.length);
    // Digit strings of the same length compare as their numbers do.
    if (prefix.length === from.length && prefix >= from && prefix <= to) return brand;
  }
  return null;
}

/** How a brand's numbers look: its name, digit groups as shown while typing, lengths and CVC length. */
export interface CardLayout {
  name: string;
  groups: number[];
  lengths: number[];
  cvcLength: number;
}

const LAYOUTS: Record<CardBrand, CardLayout> = {
  Visa: { name: 'Visa', groups: [4, 4, 4, 4, 3], lengths: [13, 16, 19], cvcLength: 3 },
  Mastercard: { name: 'Mastercard', groups: [4, 4, 4, 4], lengths: [16], cvcLength: 3 },
  Amex: { name: 'American Express', groups: [4, 6, 5], lengths: [15], cvcLength: 4 },
  Discover: { name: 'Discover', groups: [4, 4, 4, 4, 3], lengths: [16, 19], cvcLength: 3 },
};
/** Any brand not yet known: every length a card number can have. */
const UNKNOWN: CardLayout = { name: '', groups: [4, 4, 4, 4, 3], lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvcLength: 3 };

/** The layout of the brand the digits start with (an empty name when none is known yet). */
export function cardLayout(digits: string): CardLayout {
  const brand = cardBrand(digits);
  return brand ? LAYOUTS[brand] : UNKNOWN;
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
