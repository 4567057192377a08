import { describe, expect, it } from 'vitest';
import { abaValid } from './aba.js';
import { luhnValid } from './luhn.js';

describe('luhnValid', () => {
  it('accepts the sandbox test cards', () => {
    for (const n of ['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '4000000000003220']) {
      expect(luhnValid(n)).toBe(true);
    }
  });
  it('refuses a changed digit, letters and empty input', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242x24242424242')).toBe(false);
    expect(luhnValid('')).toBe(false);
  });
});

describe('abaValid', () => {
  it('accepts real routing numbers and refuses a broken checksum or length', () => {
    expect(abaValid('011000015')).toBe(true);
    expect(abaValid('021000021')).toBe(true);
    expect(abaValid('021000022')).toBe(false);
    expect(abaValid('02100002')).toBe(false);
    expect(abaValid('0210000211')).toBe(false);
  });
});
