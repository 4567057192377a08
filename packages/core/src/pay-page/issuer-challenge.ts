import { and, desc, eq, isNotNull, ne } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { payChallenges, transactions } from '../db/schema.js';
import { IS_STATUS } from '../payments/state.js';
import { refundOrphan } from '../payments/stripe-orphans.js';
import type { StripeProcessor } from '../processor/stripe.js';
import { RemitError } from '../errors.js';
import { newId } from '../ids.js';
import type { PaymentLookup } from '../processor/connector.js';
import { payAmounts } from './amounts.js';
import {
  lockPayable,
  recordApproval,
  recordDecline,
  THREE_DS_FAILED_MESSAGE,
  type Outcome,
  type Payable,
} from './payable.js';
import { inTransaction } from '../operation.js';

/**
 * 3-D Secure at the processor (Stripe): the authorization answers a challenge page of its own; the
 * pay page sends the customer there, and the processor sends them back to `/pay/{link_id}/return`.
 * The outcome is then asked of the processor, never read from the browser (whose query anyone can
 * write). A webhook or reconciliation that learns it first settles the challenge the same way.
 * No card is kept while it waits: the processor holds it.
 */

/** The simulator's challenge, whose outcome the page chooses, exists with the simulator only. */
export const clientChosenChallenge = (ctx: Pick<Ctx, 'processor'>) => ctx.processor.name === 'simulator';

/** Where the processor's challenge page sends the customer back. */
export const issuerReturnUrl = (ctx: Pick<Ctx, 'publicUrl'>, linkId: string) =>
  `${ctx.publicUrl.replace(/\/$/, '')}/pay/${encodeURIComponent(linkId)}/return`;

/** The attempt waits on the processor's page: the answer names it (`challenge.redirect_url`). */
export async function issuerChallenge(
  tx: Tx,
  p: Payable,
  c: { gatewayRef: string; redirectUrl: string; brand: string; lastFour: string },
): Promise<Outcome> {
  // A new attempt replaces the link's open challenges.
  await tx
    .update(payChallenges)
    .set({ status: 'failed', answeredAt: p.now, cardEnc: '' })
    .where(and(eq(payChallenges.payLinkId, p.link.id), eq(payChallenges.status, 'open')));
  const id = newId.challenge();
  await tx.insert(payChallenges).values({
    id,
    payLinkId: p.link.id,
    status: 'open',
    cardEnc: '',
    gatewayRef: c.gatewayRef,
    brand: c.brand,
    lastFour: c.lastFour,
    createdAt: p.now,
  });
  return {
    kind: 'done',
    result: {
      status: 'challenge',
      challenge: { id, brand: c.brand, last_four: c.lastFour, redirect_url: c.redirectUrl },
    },
  };
}

/** What became of the challenge: `waiting` while the processor has no outcome yet, `none` when nothing was open. */
export type IssuerOutcome = 'paid' | 'waiting' | 'none' | { declined: string };

/**
 * Settles the open challenge of the processor's payment `gatewayRef` with what the processor says
 * (`lookup`, or asked now): approved pays the link, declined records the declined attempt
 * (`three_ds_failed` when the challenge failed) and leaves the link open.
 */
export async function finishIssuerChallenge(
  ctx: Ctx,
  gatewayRef: string,
  lookup?: PaymentLookup,
  tx?: Tx,
): Promise<IssuerOutcome> {
  /**
   * The earlier flow made a PaymentIntent per attempt: one completed for a link it can no longer
   * pay (paid by another attempt, deleted, expired) took money nothing records. Refunded at once.
   */
  const giveBack = async (t: Tx, linkId: string): Promise<IssuerOutcome> => {
    const stripe = (ctx.processor as Partial<StripeProcessor>).stripe;
    if (!stripe) return 'none';
    const [recorded] = await t
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.gatewayRef, gatewayRef), ne(transactions.isStatus, IS_STATUS.declined)));
    if (recorded) return 'none';
    const pi = await stripe.paymentIntents.retrieve(gatewayRef);
    if (pi.status === 'succeeded' || pi.status === 'requires_capture')
      await refundOrphan(ctx, t, pi, { linkId, reason: 'a replaced or late 3-D Secure attempt' });
    return 'none';
  };
  const run = async (t: Tx, ctx: Ctx): Promise<IssuerOutcome> => {
    const [found] = await t
      .select({ linkId: payChallenges.payLinkId })
      .from(payChallenges)
      .where(eq(payChallenges.gatewayRef, gatewayRef));
    if (!found) return 'none';
    let p: Payable;
    try {
      p = await lockPayable(ctx, t, found.linkId, 'card');
    } catch (e) {
      // Paid meanwhile, cancelled or expired: nothing to settle on this link, but money taken is given back.
      if (e instanceof RemitError) return giveBack(t, found.linkId);
      throw e;
    }
    const [ch] = await t
      .select()
      .from(payChallenges)
      .where(and(eq(payChallenges.gatewayRef, gatewayRef), eq(payChallenges.status, 'open')))
      .for('update');
    // A challenge a later attempt replaced (another tab): if the customer completed it anyway, it is refunded.
    if (!ch) return giveBack(t, found.linkId);
    const said = lookup ?? (await ctx.processor.lookupPayment!({ gatewayRef }));
    if (said.state === 'pending' || said.state === 'absent') return 'waiting';
    const approved = said.state === 'approved';
    await t
      .update(payChallenges)
      .set({ status: approved ? 'completed' : 'failed', answeredAt: p.now })
      .where(eq(payChallenges.id, ch.id));
    const amount = payAmounts(p.link, p.merchant).total.card;
    const card = { amount, brand: ch.brand, lastFour: ch.lastFour, gatewayRef };
    if (approved) {
      await recordApproval(ctx, t, p, { ...card, authCode: said.authCode, paymentMethodId: null });
      return 'paid';
    }
    const message = said.code === 'three_ds_failed' ? THREE_DS_FAILED_MESSAGE : said.message;
    await recordDecline(ctx, t, p, { ...card, id: newId.transaction(), code: said.code, message });
    return { declined: said.code };
  };
  return tx ? run(tx, ctx) : inTransaction(ctx, run);
}

/**
 * `GET /pay/{link_id}/return`: the customer is back from the processor's challenge. The link's
 * latest open processor challenge is settled by asking the processor; the browser's query is not
 * read. Answers where the page goes next.
 */
export async function returnFromIssuer(ctx: Ctx, linkId: string): Promise<IssuerOutcome> {
  if (!ctx.processor.lookupPayment) return 'none';
  const [open] = await ctx.db
    .select({ ref: payChallenges.gatewayRef })
    .from(payChallenges)
    .where(
      and(eq(payChallenges.payLinkId, linkId), eq(payChallenges.status, 'open'), isNotNull(payChallenges.gatewayRef)),
    )
    .orderBy(desc(payChallenges.createdAt))
    .limit(1);
  return open?.ref ? finishIssuerChallenge(ctx, open.ref) : 'none';
}
