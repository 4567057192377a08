import type { Ctx } from '../context.js';
import type { StripeProcessor } from '../processor/stripe.js';
import { stateOf } from '../payments/state.js';
import type { LinkRow, SaleRow } from './lookup.js';

/**
 * Stripe's microdeposit verification page of a paid link's bank debit, while it waits for the
 * customer (`verify_with_microdeposits`): the page shows it again after a reload. Null otherwise,
 * and when Stripe cannot be asked (the page still shows the pending payment).
 */
export async function pendingVerificationUrl(
  ctx: Pick<Ctx, 'processor'>,
  link: LinkRow,
  sale: SaleRow | null,
): Promise<string | null> {
  const stripe = (ctx.processor as Partial<StripeProcessor>).stripe;
  if (ctx.processor.name !== 'stripe' || !stripe || link.status !== 'paid' || !sale || !link.stripeIntentId)
    return null;
  if (sale.paymentMethod !== 'ach' || sale.gatewayRef !== link.stripeIntentId || stateOf(sale.isStatus) !== 'pending')
    return null;
  try {
    const pi = await stripe.paymentIntents.retrieve(link.stripeIntentId);
    if (pi.status !== 'requires_action' || pi.next_action?.type !== 'verify_with_microdeposits') return null;
    return pi.next_action.verify_with_microdeposits?.hosted_verification_url ?? null;
  } catch {
    return null;
  }
}
