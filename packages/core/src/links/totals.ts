import { formatAmount, type Cents } from '../money.js';
import { RemitError } from '../errors.js';
import { feeFor, type Pricing } from '../payments/fees.js';

/** The parts of a link that decide what the customer pays. */
export interface LinkAmounts {
  amountCents: Cents;
  taxCents: Cents;
  surchargeCents: Cents;
  discountCents: Cents;
  passFee: boolean;
}

export interface LinkTotals {
  amount: Cents;
  tax: Cents;
  surcharge: Cents;
  discount: Cents;
  /** amount + tax + surcharge − discount. */
  subtotal: Cents;
  /** The processing fee passed to the customer (0 unless pass_fee). */
  passedFee: Cents;
  /** What the customer pays. */
  total: Cents;
}

/**
 * What the customer pays for a link: amount + tax + surcharge − discount, plus the processing fee
 * (`feeFor`, the one pricing rule) when the fee is passed on. Links are priced for card; the pay
 * step prices an ACH payment with `method` 'ach'.
 */
export function linkTotals(link: LinkAmounts, pricing: Pricing, method: 'card' | 'ach' = 'card'): LinkTotals {
  const subtotal = link.amountCents + link.taxCents + link.surchargeCents - link.discountCents;
  const passedFee = link.passFee && subtotal > 0 ? feeFor(pricing, method, subtotal).feeCents : 0;
  return {
    amount: link.amountCents,
    tax: link.taxCents,
    surcharge: link.surchargeCents,
    discount: link.discountCents,
    subtotal,
    passedFee,
    total: subtotal + passedFee,
  };
}

/** Refuses totals a customer could not pay: nothing to pay, or above the merchant's limit. */
export function assertPayable(totals: LinkTotals, maxAmountCents: Cents): void {
  if (totals.subtotal <= 0) {
    throw new RemitError(
      'amount_not_positive',
      'The amount to pay (amount + tax + surcharge - discount) must be more than 0; lower the discount.',
      { errors: [{ path: 'discount', message: 'must be less than amount + tax + surcharge' }] },
    );
  }
  if (totals.total > maxAmountCents) {
    throw new RemitError(
      'amount_over_limit',
      `The amount to pay (${formatAmount(totals.total)}) is above this merchant's limit of ${formatAmount(maxAmountCents)}.`,
      { errors: [{ path: 'amount', message: `the amount to pay must be at most ${formatAmount(maxAmountCents)}` }] },
    );
  }
}
