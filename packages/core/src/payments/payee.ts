import type { Payee } from '../processor/connector.js';
import { feeFor, type Pricing } from './fees.js';

/**
 * The merchant as the payee of a payment, when it is an account at the processor (Stripe): our
 * fee of that payment (feeFor, the one fee rule) is what the processor keeps back for us.
 */
export function payeeOf(
  merchant: Pricing & { stripeAccountId: string | null },
  method: 'card' | 'ach',
  amountCents: number,
): Payee | undefined {
  if (!merchant.stripeAccountId) return undefined;
  return { account: merchant.stripeAccountId, applicationFeeCents: feeFor(merchant, method, amountCents).feeCents };
}
