import type { Cents } from '../money.js';
import { add, compileFields, eq, least, lit, param, rated, sub, when, type Expr, type TxnRow } from './row-expr.js';

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
 * The pricing rule, once, over the payment method and amount it is given (columns of a row a
 * statement prices, or parameters): card, amount × rate + fixed part; ACH, amount × rate, never
 * above the cap. The pricing is parameters named as `Pricing`'s fields.
 */
export function feeRule(
  method: Expr<string>,
  amount: Expr<number>,
): { feeCents: Expr<number>; rateE7: Expr<number>; netCents: Expr<number> } {
  const ach = eq(method, lit.text('ach'));
  const feeCents = when(
    ach,
    least(rated(amount, param.int('achFeeRateE7')), param.cents('achFeeCapCents')),
    add(rated(amount, param.int('cardFeeRateE7')), param.cents('cardFeeFixedCents')),
  );
  return {
    feeCents,
    rateE7: when(ach, param.int('achFeeRateE7'), param.int('cardFeeRateE7')),
    netCents: sub(amount, feeCents),
  };
}

/** The rule compiled once over given values (no row): one plain function call per fee. */
const given = compileFields<
  Fee,
  [method: string, amount: Cents, cardRate: number, cardFixed: Cents, achRate: number, achCap: Cents]
>(feeRule(param.text('method'), param.cents('amount')), [
  'method',
  'amount',
  'cardFeeRateE7',
  'cardFeeFixedCents',
  'achFeeRateE7',
  'achFeeCapCents',
]);
const NO_ROW = {} as TxnRow;

/**
 * The processing fee of a charge.
 * @example feeFor(pricing, 'card', 1000) // default pricing → { feeCents: 59, rateE7: 29000000, netCents: 941 }
 */
export function feeFor(pricing: Pricing, method: 'card' | 'ach', amountCents: Cents): Fee {
  return given(
    NO_ROW,
    method,
    amountCents,
    pricing.cardFeeRateE7,
    pricing.cardFeeFixedCents,
    pricing.achFeeRateE7,
    pricing.achFeeCapCents,
  );
}
