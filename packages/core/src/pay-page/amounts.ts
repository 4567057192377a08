import type { PayAmounts } from '@remit/contract';
import { linkTotals } from '../links/totals.js';
import { applyRate } from '../money.js';
import type { Pricing } from '../payments/fees.js';
import type { LinkRow } from './lookup.js';

/**
 * What the customer pays by each method. The link is priced as `linkTotals` prices it (card);
 * when the fee is passed on, an ACH payment carries the merchant's ACH fee instead (rate, capped).
 */
export function payAmounts(link: LinkRow, pricing: Pricing): PayAmounts {
  const t = linkTotals(link, pricing);
  const achFee =
    link.passFee && t.subtotal > 0 ? Math.min(applyRate(t.subtotal, pricing.achFeeRateE7), pricing.achFeeCapCents) : 0;
  return {
    currency: 'USD',
    amount: t.amount,
    tax: t.tax,
    surcharge: t.surcharge,
    discount: t.discount,
    subtotal: t.subtotal,
    fee: { card: t.passedFee, ach: achFee },
    total: { card: t.total, ach: t.subtotal + achFee },
  };
}
