import { describe, expect, it } from 'vitest';
import type { Processor } from '../processor/connector.js';
import { checkCard } from './vault.js';

/** A live processor takes any Luhn-valid number (the simulator only its test cards), so the brand rule decides. */
const ctx = { processor: { checkCardNumber: () => null } as unknown as Processor };
const now = new Date('2026-11-26T12:00:00Z');
const card = (number: string) => ({
  number,
  exp_month: 12,
  exp_year: 2030,
  cvc: '123',
  name: 'A Customer',
  zip: '94107',
});
const refusal = (number: string) => {
  try {
    checkCard(ctx, card(number), now);
  } catch (e) {
    return (e as { code: string }).code;
  }
  return null;
};

describe('checkCard brand (the card rules the pay page uses too)', () => {
  it('accepts Mastercard 2-series 2221–2720 and Discover 622126–622925 under their brands', () => {
    expect(checkCard(ctx, card('2221000000000009'), now)).toBe('Mastercard');
    expect(checkCard(ctx, card('2720000000000005'), now)).toBe('Mastercard');
    expect(checkCard(ctx, card('6221260000000000'), now)).toBe('Discover');
    expect(checkCard(ctx, card('6229250000000003'), now)).toBe('Discover');
  });

  it('refuses numbers just outside those ranges as a brand not accepted', () => {
    expect(refusal('2200000000000004')).toBe('card_not_accepted');
    expect(refusal('2721000000000004')).toBe('card_not_accepted');
    expect(refusal('6221250000000001')).toBe('card_not_accepted');
  });

  it('refuses a number failing the Luhn check first', () => {
    expect(refusal('6221260000000001')).toBe('invalid_card_number');
  });
});
