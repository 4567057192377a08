import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry } from './card-format.js';

describe('card number and expiry spacing', () => {
  it('spaces as typed, Amex 4-6-5, and cuts extra digits', () => {
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242-4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('3782822463100059999')).toBe('3782 822463 10005');
  });
  it('formats the expiry as MM / YY', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('12', true)).toBe('12');
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('12 / 305')).toBe('12 / 30');
  });
});
