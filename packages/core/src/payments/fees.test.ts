import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatRate } from '../money.js';
import { DEFAULT_PRICING } from '../merchants/onboarding.js';
import { feeFor, type Pricing } from './fees.js';

describe('fees', () => {
  it('card: 2.9% + 0.30 of 10.00 is 0.59, net 9.41', () => {
    expect(feeFor(DEFAULT_PRICING, 'card', 1000)).toEqual({ feeCents: 59, rateE7: 29_000_000, netCents: 941 });
    expect(formatRate(feeFor(DEFAULT_PRICING, 'card', 1000).rateE7)).toBe('2.9000000');
  });

  it('card: rounds half up (12.34 × 2.9% = 35.786 → 36, + 30)', () => {
    expect(feeFor(DEFAULT_PRICING, 'card', 1234).feeCents).toBe(66);
  });

  it('ACH: 1% of 2000.00 is capped at 10.00', () => {
    expect(feeFor(DEFAULT_PRICING, 'ach', 200_000)).toEqual({ feeCents: 1000, rateE7: 10_000_000, netCents: 199_000 });
  });

  it('ACH: 1% of 50.00 is 0.50 (under the cap)', () => {
    expect(feeFor(DEFAULT_PRICING, 'ach', 5000).feeCents).toBe(50);
  });

  const pricing = fc.record<Pricing>({
    cardFeeRateE7: fc.integer({ min: 0, max: 100_000_000 }),
    cardFeeFixedCents: fc.integer({ min: 0, max: 1000 }),
    achFeeRateE7: fc.integer({ min: 0, max: 100_000_000 }),
    achFeeCapCents: fc.integer({ min: 0, max: 100_000 }),
  });
  const amount = fc.integer({ min: 1, max: 99_999_999 });
  const method = fc.constantFrom('card' as const, 'ach' as const);

  it('property: fee ≥ 0, integer, net + fee = amount', () => {
    fc.assert(
      fc.property(pricing, method, amount, (p, m, a) => {
        const f = feeFor(p, m, a);
        expect(Number.isInteger(f.feeCents)).toBe(true);
        expect(f.feeCents).toBeGreaterThanOrEqual(0);
        expect(f.netCents + f.feeCents).toBe(a);
      }),
    );
  });

  it('property: ACH fee never above the cap nor above the amount when the rate is ≤ 100%', () => {
    fc.assert(
      fc.property(pricing, amount, (p, a) => {
        const f = feeFor(p, 'ach', a);
        expect(f.feeCents).toBeLessThanOrEqual(p.achFeeCapCents);
        expect(f.feeCents).toBeLessThanOrEqual(a);
      }),
    );
  });

  it('property: the fee grows with the amount', () => {
    fc.assert(
      fc.property(pricing, method, amount, amount, (p, m, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(feeFor(p, m, lo).feeCents).toBeLessThanOrEqual(feeFor(p, m, hi).feeCents);
      }),
    );
  });
});
