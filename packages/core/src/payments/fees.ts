import { applyRate, type Cents } from '../money.js';

/** A merchant's pricing, as stored on its row (rates in units of 1e-7 percent). */
export interface Pricing {
  cardFeeRateE7: number;
  cardFeeFixedCents: number;
  achFeeRateE7: number;
  achFeeCapCents: number;
}

export interface Fee {
  feeCents: Cents;
  /** Stored on the transaction so `fee_percentage` reads back as `formatRate(rate)`. */
  rateE7: number;
  /** amount − fee; may be negative for a tiny card charge (the fixed part exceeds it). */
  netCents: Cents;
}

/**
 * The processing fee of a charge.
 * Card: amount × rate + fixed part. ACH: amount × rate, never above the cap.
 * @example feeFor(pricing, 'card', 1000) // default pricing → { feeCents: 59, rateE7: 29000000, netCents: 941 }
 */
export function feeFor(pricing: Pricing, method: 'card' | 'ach', amountCents: Cents): Fee {
  const feeCents =
    method === 'card'
      ? applyRate(amountCents, pricing.cardFeeRateE7) + pricing.cardFeeFixedCents
      : Math.min(applyRate(amountCents, pricing.achFeeRateE7), pricing.achFeeCapCents);
  const rateE7 = method === 'card' ? pricing.cardFeeRateE7 : pricing.achFeeRateE7;
  return { feeCents, rateE7, netCents: amountCents - feeCents };
}
