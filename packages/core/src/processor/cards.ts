import type { CardBrand } from './connector.js';

/** Luhn checksum over a digit string. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(number: string): CardBrand | null {
  if (/^4/.test(number)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'Mastercard';
  if (/^3[47]/.test(number)) return 'Amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'Discover';
  return null;
}

/** ABA routing number checksum (3-7-1 weights): the request schemas use it too. */
export { abaRoutingValid } from '@remit/contract';
