import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RemitError } from '../errors.js';
import { feeFor } from '../payments/fees.js';
import { assertPayable, linkTotals } from './totals.js';

const pricing = { cardFeeRateE7: 29_000_000, cardFeeFixedCents: 30, achFeeRateE7: 10_000_000, achFeeCapCents: 1000 };
const link = (o: Partial<Parameters<typeof linkTotals>[0]> = {}) => ({
  amountCents: 1000,
  taxCents: 0,
  surchargeCents: 0,
  discountCents: 0,
  passFee: false,
  ...o,
});

describe('linkTotals', () => {
  it('is the amount alone by default', () => {
    expect(linkTotals(link(), pricing)).toEqual({
      amount: 1000,
      tax: 0,
      surcharge: 0,
      discount: 0,
      subtotal: 1000,
      passedFee: 0,
      total: 1000,
    });
  });

  it('adds tax and surcharge and subtracts discount', () => {
    const t = linkTotals(link({ taxCents: 80, surchargeCents: 25, discountCents: 105 }), pricing);
    expect(t.subtotal).toBe(1000);
    expect(t.total).toBe(1000);
  });

  it('pass_fee adds 2.9% + 0.30 of the subtotal, rounded half up', () => {
    // 10.00 → 0.29 + 0.30
    expect(linkTotals(link({ passFee: true }), pricing)).toMatchObject({ passedFee: 59, total: 1059 });
    // 12.50 × 2.9% = 0.3625 → 0.36
    expect(linkTotals(link({ amountCents: 1250, passFee: true }), pricing).passedFee).toBe(66);
    // 0.50 × 2.9% = 0.0145 → 0.01
    expect(linkTotals(link({ amountCents: 50, passFee: true }), pricing).passedFee).toBe(31);
  });

  it('uses the merchant pricing columns', () => {
    expect(
      linkTotals(link({ passFee: true }), { ...pricing, cardFeeRateE7: 35_000_000, cardFeeFixedCents: 0 }).passedFee,
    ).toBe(35);
  });

  it('the passed fee is the fee the charge is priced at (feeFor), by card and by bank account (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.constantFrom('card' as const, 'ach' as const),
        (amount, method) => {
          const t = linkTotals(link({ amountCents: amount, passFee: true }), pricing, method);
          expect(t.passedFee).toBe(feeFor(pricing, method, amount).feeCents);
        },
      ),
    );
  });

  it('total = subtotal + passed fee, in whole cents (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.boolean(),
        (amount, tax, passFee) => {
          const t = linkTotals(link({ amountCents: amount, taxCents: tax, passFee }), pricing);
          expect(Number.isInteger(t.total)).toBe(true);
          expect(t.total).toBe(t.subtotal + t.passedFee);
          expect(t.passedFee).toBe(passFee ? Math.round((t.subtotal * 29) / 1000 + 1e-9) + 30 : 0);
        },
      ),
    );
  });
});

describe('assertPayable', () => {
  const code = (f: () => void) => {
    try {
      f();
      return null;
    } catch (e) {
      return (e as RemitError).code;
    }
  };
  it('refuses nothing or less to pay', () => {
    expect(code(() => assertPayable(linkTotals(link({ discountCents: 1000 }), pricing), 99_999_999))).toBe(
      'amount_not_positive',
    );
    expect(code(() => assertPayable(linkTotals(link({ discountCents: 5000 }), pricing), 99_999_999))).toBe(
      'amount_not_positive',
    );
  });
  it('refuses a total above the merchant limit', () => {
    expect(
      code(() => assertPayable(linkTotals(link({ amountCents: 99_999_999, taxCents: 1 }), pricing), 99_999_999)),
    ).toBe('amount_over_limit');
  });
  it('accepts a positive total within the limit', () => {
    expect(code(() => assertPayable(linkTotals(link({ discountCents: 999 }), pricing), 99_999_999))).toBeNull();
  });
});
