/** Card brand from the leading digits, and the spacing and lengths that brand uses. */
export interface Brand {
  name: string;
  /** Digits in each group as shown while typing. */
  groups: number[];
  lengths: number[];
  cvcLength: number;
}

const AMEX: Brand = { name: 'American Express', groups: [4, 6, 5], lengths: [15], cvcLength: 4 };
const BRANDS: Array<[RegExp, Brand]> = [
  [/^3[47]/, AMEX],
  [/^4/, { name: 'Visa', groups: [4, 4, 4, 4, 3], lengths: [13, 16, 19], cvcLength: 3 }],
  [/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/, { name: 'Mastercard', groups: [4, 4, 4, 4], lengths: [16], cvcLength: 3 }],
  [/^(6011|65|64[4-9]|622)/, { name: 'Discover', groups: [4, 4, 4, 4, 3], lengths: [16, 19], cvcLength: 3 }],
];
const UNKNOWN: Brand = { name: '', groups: [4, 4, 4, 4, 3], lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvcLength: 3 };

export function cardBrand(digits: string): Brand {
  for (const [re, brand] of BRANDS) if (re.test(digits)) return brand;
  return UNKNOWN;
}

export const onlyDigits = (s: string) => s.replace(/\D/g, '');

/** "4242424242424242" → "4242 4242 4242 4242"; Amex "3782 822463 10005". Extra digits are cut. */
export function formatCardNumber(raw: string): string {
  const brand = cardBrand(onlyDigits(raw));
  const digits = onlyDigits(raw).slice(0, Math.max(...brand.lengths));
  const parts: string[] = [];
  let at = 0;
  for (const g of brand.groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + g));
    at += g;
  }
  return parts.join(' ');
}

/** "1" → "1", "12" → "12 / ", "123" → "12 / 3"; a first digit 2–9 is a month "0d". */
export function formatExpiry(raw: string, deleting = false): string {
  let d = onlyDigits(raw).slice(0, 4);
  if (d.length === 1 && d > '1') d = `0${d}`;
  if (d.length < 2) return d;
  if (d.length === 2) return deleting ? d : `${d} / `;
  return `${d.slice(0, 2)} / ${d.slice(2)}`;
}
