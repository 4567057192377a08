import type { PayAmounts } from '@remit/contract';
import { linkTotals } from '../links/totals.js';
import type { Pricing } from '../payments/fees.js';
import type { LinkRow } from './lookup.js';

/**
 * What the customer pays by each method, as `linkTotals` prices it: when the fee is passed on, a
 * card payment carries the card fee and an ACH payment the ACH fee (both `feeFor`).
 */
export function payAmounts(link: LinkRow, pricing: Pricing): PayAmounts {
  const t = linkTotals(link, pricing);
  const ach = linkTotals(link, pricing, 'ach');
  return {
    currency: 'USD',
    amount: t.amount,
    tax: t.tax,
    surcharge: t.surcharge,
    discount: t.discount,
    subtotal: t.subtotal,
    fee: { card: t.passedFee, ach: ach.passedFee },
    total: { card: t.total, ach: ach.total },
  };
}
