import type { Cents } from '../money.js';
import { feeFor, type Pricing } from './fees.js';
import { nextState, stateColumns } from './state.js';

/**
 * The columns an approved card authorization writes, wherever it is answered (a charge, the pay
 * page, reconciliation of a `processing` row): the state the table leads to, what a
 * preauthorization holds (`heldCents` reads it back), the fee of the amount, and the completion
 * time of a sale. A preauthorization shows the fee of its full amount; capture prices the
 * captured amount.
 */
export function authorizedColumns(pricing: Pricing, amountCents: Cents, preauth: boolean, at: Date) {
  const fee = feeFor(pricing, 'card', amountCents);
  return {
    ...stateColumns(nextState('processing', preauth ? 'processor_preauth' : 'processor_approve')!),
    authorizedCents: preauth ? amountCents : null,
    feeCents: fee.feeCents,
    feeRateE7: fee.rateE7,
    netCents: fee.netCents,
    completedAt: preauth ? null : at,
  };
}
