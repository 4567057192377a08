import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { merchants } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { refreshAccount } from '../merchants/refresh-account.js';
import { intentOutcome, type StripeProcessor } from '../processor/stripe.js';
import type { Tx } from '../db/connect.js';
import { settleProcessingByKey } from '../reconciliation/settle-processing.js';
import { achResult } from '../payments/stripe-ach.js';
import { finishIssuerChallenge } from '../pay-page/issuer-challenge.js';
import { applyDispute } from './disputes.js';
import { verifiedStripeEvent } from './entry.js';
import { linkIntentEvent } from '../pay-page/stripe-intent.js';
import { inTransaction } from '../operation.js';

/**
 * `POST /stripe/webhooks`: Stripe's events, verified with `Stripe-Signature` (bad, more than five
 * minutes from our clock either way, or not an event's shape: 400, nothing changes; see
 * entry.ts). Each event is handled once, by its id, in one transaction
 * with what it changes; every handler also checks the state it moves from, so a duplicate or an
 * event that arrives after a later one changes nothing.
 */

/** The idempotency store's scope of Stripe's event ids. */
const EVENTS_SCOPE = 'stripe:events';

export type StripeEventOutcome = { event_id: string; handled: 'applied' | 'duplicate' | 'ignored' };

export async function receiveStripeEvent(
  ctx: Ctx,
  rawBody: string,
  signature: string | undefined,
): Promise<StripeEventOutcome> {
  const processor = ctx.processor as Partial<StripeProcessor>;
  if (ctx.processor.name !== 'stripe' || !processor.stripe) {
    throw notFound('route_not_found', 'Stripe events are received only when REMIT_PROCESSOR=stripe.');
  }
  if (!processor.webhookSecret)
    throw invalid('invalid_request', 'STRIPE_WEBHOOK_SECRET is not set: Stripe events cannot be verified.');
  // Signatures are dated by Stripe's clock, not the business clock (ctx.now).
  const event = verifiedStripeEvent(processor.stripe, processor.webhookSecret, rawBody, signature, Date.now());
  return inTransaction(ctx, async (tx, ctx) => {
    // Claimed with the changes it makes: a duplicate waits on this row, then finds it.
    const claimed =
      await tx.execute(sql`insert into idempotency_keys (client_id, key, request_hash, status_code, response_body)
      values (${EVENTS_SCOPE}, ${event.id}, ${event.type}, 200, '') on conflict do nothing returning key`);
    if ((claimed as unknown as { rows: unknown[] }).rows.length === 0)
      return { event_id: event.id, handled: 'duplicate' as const };
    const applied = await applyEvent(tx, ctx, event);
    return { event_id: event.id, handled: applied ? ('applied' as const) : ('ignored' as const) };
  });
}

async function applyEvent(tx: Queryable, ctx: Ctx, event: Stripe.Event): Promise<boolean> {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.amount_capturable_updated':
    case 'payment_intent.processing':
    case 'payment_intent.requires_action':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      // A link's PaymentIntent (the Payment Element): read from Stripe and recorded once.
      if (intent.metadata?.remit_link) return linkIntentEvent(tx as Tx, ctx, intent.id);
      if (event.type === 'payment_intent.processing' || event.type === 'payment_intent.requires_action') return false;
      if (!(intent.payment_method_types ?? []).includes('us_bank_account')) return cardResult(tx, ctx, intent);
      if (event.type === 'payment_intent.amount_capturable_updated') return false;
      const outcome =
        event.type === 'payment_intent.succeeded'
          ? ({ approved: true } as const)
          : ({ approved: false, message: intent.last_payment_error?.message ?? 'Returned by the bank' } as const);
      return achResult(tx, ctx, intent.id, outcome);
    }
    case 'charge.failed': {
      // An ACH debit returned after it succeeded: Stripe fails its charge (failure_message: the return reason).
      const charge = event.data.object;
      if (charge.payment_method_details?.type !== 'us_bank_account' || typeof charge.payment_intent !== 'string')
        return false;
      return achResult(
        tx,
        ctx,
        charge.payment_intent,
        { approved: false, message: charge.failure_message ?? 'Returned by the bank' },
        { afterSuccess: true },
      );
    }
    case 'account.updated':
      return accountUpdated(tx, ctx, event.data.object.id);
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return applyDispute({ ...ctx, db: tx }, event.type, event.data.object, event.created);
    default:
      return false;
  }
}

/**
 * A merchant's connected account changed. What decides is the account as Stripe holds it now, not
 * the event's copy, so events that come late or out of order cannot approve an account Stripe has
 * since restricted (nor miss one it enabled).
 */
async function accountUpdated(tx: Queryable, ctx: Ctx, account: string): Promise<boolean> {
  const [merchant] = await tx
    .select({ id: merchants.id })
    .from(merchants)
    .where(eq(merchants.stripeAccountId, account));
  if (!merchant) return false;
  const r = await refreshAccount(tx, ctx, merchant.id);
  return r !== null && (r.approved || r.changed);
}

/**
 * A card PaymentIntent's outcome, as Stripe reports it: a `processing` payment created with it
 * (found by its `metadata.remit_key`), or a pay page 3-D Secure challenge waiting on it, is settled
 * as reconciliation would. Anything else (a payment already settled) is left as it is.
 */
async function cardResult(tx: Queryable, ctx: Ctx, intent: Stripe.PaymentIntent): Promise<boolean> {
  const outcome = intentOutcome(intent);
  const key = intent.metadata?.remit_key;
  if (key) {
    const settled = await settleProcessingByKey(ctx, tx as Tx, key, outcome, false);
    if (settled !== null) return settled;
  }
  const done = await finishIssuerChallenge(ctx, intent.id, outcome, tx as Tx);
  return done !== 'none' && done !== 'waiting';
}
