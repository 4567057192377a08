import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { processorOrphans } from '../db/schema.js';
import type { StripeProcessor } from '../processor/stripe.js';

/**
 * A PaymentIntent that took money for a link that can no longer be paid (already paid by another,
 * deleted, expired): the money is given back at once (refunded; a held authorization canceled),
 * logged, and kept in `processor_orphans` for reconciliation's listing. One row per
 * PaymentIntent: a second finder (event after report) changes nothing. A bank debit still moving
 * cannot be refunded yet: it stays `pending` and the next event or pass refunds it.
 */

export type OrphanAction = 'refunded' | 'canceled' | 'pending' | 'failed';

export async function refundOrphan(
  ctx: Pick<Ctx, 'processor' | 'now'>,
  q: Queryable,
  pi: Stripe.PaymentIntent,
  o: { linkId: string | null; reason: string },
): Promise<OrphanAction> {
  const [known] = await q.select().from(processorOrphans).where(eq(processorOrphans.gatewayRef, pi.id)).for('update');
  if (known && (known.action === 'refunded' || known.action === 'canceled')) return known.action;
  const stripe = (ctx.processor as StripeProcessor).stripe;
  let action: OrphanAction;
  let detail = '';
  try {
    if (pi.status === 'succeeded') {
      await stripe.refunds.create(
        {
          payment_intent: pi.id,
          metadata: { remit_orphan: o.linkId ?? '' },
          // A destination charge: the transfer and our fee come back too; nobody was paid.
          ...(pi.transfer_data ? { reverse_transfer: true, refund_application_fee: true } : {}),
        },
        { idempotencyKey: `remit_orphan_refund_${pi.id}` },
      );
      action = 'refunded';
    } else if (pi.status === 'processing') {
      action = 'pending';
    } else {
      await stripe.paymentIntents.cancel(pi.id, {}, { idempotencyKey: `remit_orphan_cancel_${pi.id}` });
      action = 'canceled';
    }
  } catch (e) {
    action = 'failed';
    detail = `: ${(e as Error).message}`;
  }
  const amount = pi.amount_received || pi.amount_capturable || pi.amount;
  const row = {
    payLinkId: o.linkId,
    amountCents: amount,
    action,
    reason: `${o.reason}${detail}`.slice(0, 500),
    createdAt: ctx.now(),
  };
  if (known) await q.update(processorOrphans).set(row).where(eq(processorOrphans.gatewayRef, pi.id));
  else await q.insert(processorOrphans).values({ gatewayRef: pi.id, ...row });
  // An operator sees it at once in the log, and in `payments reconcile` after.
  console.warn(
    `remit: PaymentIntent ${pi.id} took ${amount} cents for link ${o.linkId ?? '?'} that cannot be paid (${o.reason}): ${action}${detail}`,
  );
  return action;
}
