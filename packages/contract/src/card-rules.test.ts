import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abaRoutingValid, cardBrand, cardLayout, luhnValid, type CardBrand } from './card-rules.js';

/** The published IIN ranges again, as numbers: an oracle written differently from the module's table. */
function brandByNumber(digits: string): CardBrand | null {
  const p = (n: number) => (digits.length >= n ? Number(digits.slice(0, n)) : NaN);
  if (p(1) === 4) return 'Visa';
  if ((p(2) >= 51 && p(2) <= 55) || (p(4) >= 2221 && p(4) <= 2720)) return 'Mastercard';
  if (p(2) === 34 || p(2) === 37) return 'Amex';
  if (p(4) === 6011 || (p(6) >= 622126 && p(6) <= 622925) || (p(3) >= 644 && p(3) <= 649) || p(2) === 65)
    return 'Discover';
  return null;
}

/** The Luhn check digit that completes `body`. */
function checkDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return String(d);
  throw new Error(`no check digit for ${body}`);
}

const digitString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

describe('cardBrand', () => {
  it.each([
    ['4242', 'Visa'],
    ['4', 'Visa'],
    ['5100', 'Mastercard'],
    ['5599', 'Mastercard'],
    ['5000', null],
    ['5600', null],
    ['2220', null],
    ['2221', 'Mastercard'],
    ['2720', 'Mastercard'],
    ['2721', null],
    ['2300', 'Mastercard'],
    ['3400', 'Amex'],
    ['3782', 'Amex'],
    ['3500', null],
    ['6011', 'Discover'],
    ['6012', null],
    ['622125', null],
    ['622126', 'Discover'],
    ['622500', 'Discover'],
    ['622925', 'Discover'],
    ['622926', null],
    ['643', null],
    ['644', 'Discover'],
    ['649', 'Discover'],
    ['650', 'Discover'],
    ['9', null],
    ['', null],
  ] as const)('%s → %s', (digits, brand) => {
    expect(cardBrand(digits)).toBe(brand);
  });

  it('waits for enough digits: "222" and "6221" are not yet a brand', () => {
    expect(cardBrand('222')).toBeNull();
    expect(cardBrand('6221')).toBeNull();
    expect(cardBrand('62212')).toBeNull();
  });

  it('agrees with the IIN ranges for any number', () => {
    fc.assert(
      fc.property(digitString(6, 19), (digits) => cardBrand(digits) === brandByNumber(digits)),
      { numRuns: 5000 },
    );
  });

  it('agrees inside the narrow ranges too (2-series and 622)', () => {
    const near = fc.oneof(
      fc.integer({ min: 2200, max: 2799 }).map(String),
      fc.integer({ min: 622000, max: 622999 }).map(String),
    );
    fc.assert(
      fc.property(near, digitString(0, 10), (head, tail) => cardBrand(head + tail) === brandByNumber(head + tail)),
    );
  });
});

describe('cardLayout', () => {
  it('gives each brand its lengths and CVC length, and every length while unknown', () => {
    expect(cardLayout('3782')).toMatchObject({
      name: 'American Express',
      groups: [4, 6, 5],
      lengths: [15],
      cvcLength: 4,
    });
    expect(cardLayout('2221')).toMatchObject({ name: 'Mastercard', lengths: [16], cvcLength: 3 });
    expect(cardLayout('622126')).toMatchObject({ name: 'Discover', lengths: [16, 19] });
    expect(cardLayout('9')).toMatchObject({ name: '', lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvcLength: 3 });
  });
});

describe('luhnValid', () => {
  it('accepts the sandbox test cards', () => {
    for (const n of [
      '4242424242424242',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '4000000000003220',
    ]) {
      expect(luhnValid(n)).toBe(true);
    }
  });

  it('refuses a changed digit, letters, spaces, and lengths outside 12–19', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242x24242424242')).toBe(false);
    expect(luhnValid('4242 4242 4242 4242')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('00000000000')).toBe(false);
    expect(luhnValid('000000000000')).toBe(true);
    expect(luhnValid('00000000000000000000')).toBe(false);
  });

  it('accepts exactly one check digit for any body, and refuses any single changed digit', () => {
    fc.assert(
      fc.property(digitString(11, 18), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, by) => {
        const number = body + checkDigit(body);
        const others = [...'0123456789'].filter((d) => d !== number.at(-1)).filter((d) => luhnValid(body + d));
        const i = at % number.length;
        const changed = number.slice(0, i) + ((Number(number[i]) + by) % 10) + number.slice(i + 1);
        return others.length === 0 && !luhnValid(changed);
      }),
    );
  });
});

describe('abaRoutingValid', () => {
  it('accepts real routing numbers and refuses a broken checksum or length', () => {
    expect(abaRoutingValid('011000015')).toBe(true);
    expect(abaRoutingValid('021000021')).toBe(true);
    expect(abaRoutingValid('021000022')).toBe(false);
    expect(abaRoutingValid('02100002')).toBe(false);
    expect(abaRoutingValid('0210000211')).toBe(false);
    expect(abaRoutingValid('02100002a')).toBe(false);
  });

  it('has exactly one check digit for any eight, and refuses any single changed digit', () => {
    fc.assert(
      fc.property(digitString(8, 8), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, at, by) => {
        const valid = [...'0123456789'].filter((d) => abaRoutingValid(body + d));
        if (valid.length !== 1) return false;
        const routing = body + valid[0];
        const i = at % 9;
        return !abaRoutingValid(routing.slice(0, i) + ((Number(routing[i]) + by) % 10) + routing.slice(i + 1));
      }),
    );
  });
});
