import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linkTotals } from '../links/totals.js';
import { payAmounts } from './amounts.js';
import type { LinkRow } from './lookup.js';

const pricing = { cardFeeRateE7: 29_000_000, cardFeeFixedCents: 30, achFeeRateE7: 10_000_000, achFeeCapCents: 1000 };
const link = (o: Partial<LinkRow> = {}) =>
  ({ amountCents: 10_000, taxCents: 0, surchargeCents: 0, discountCents: 0, passFee: false, ...o }) as LinkRow;

describe('payAmounts', () => {
  it('itemizes what the customer pays by card and by bank account', () => {
    expect(
      payAmounts(link({ taxCents: 825, surchargeCents: 300, discountCents: 1000, passFee: true }), pricing),
    ).toEqual({
      currency: 'USD',
      amount: 10_000,
      tax: 825,
      surcharge: 300,
      discount: 1000,
      subtotal: 10_125,
      fee: { card: 324, ach: 101 },
      total: { card: 10_449, ach: 10_226 },
    });
  });

  it('no fee by either method unless it is passed on', () => {
    expect(payAmounts(link({ taxCents: 5 }), pricing)).toMatchObject({
      fee: { card: 0, ach: 0 },
      total: { card: 10_005, ach: 10_005 },
    });
  });

  it('the ACH fee is capped (10.00 by default)', () => {
    expect(payAmounts(link({ amountCents: 5_000_000, passFee: true }), pricing).fee.ach).toBe(1000);
  });

  it('card total is linkTotals exactly; ACH total is subtotal + min(1%, cap) (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.boolean(),
        (amount, tax, passFee) => {
          const l = link({ amountCents: amount, taxCents: tax, passFee });
          const a = payAmounts(l, pricing);
          const t = linkTotals(l, pricing);
          expect(a.total.card).toBe(t.total);
          expect(a.subtotal).toBe(t.subtotal);
          const achFee = passFee ? Math.min(Math.round(a.subtotal / 100 + 1e-9), 1000) : 0;
          expect(a.fee.ach).toBe(achFee);
          expect(a.total.ach).toBe(a.subtotal + achFee);
          for (const v of [a.fee.card, a.fee.ach, a.total.card, a.total.ach]) expect(Number.isInteger(v)).toBe(true);
        },
      ),
    );
  });
});
