import { and, eq, inArray, like, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Ctx } from '../context.js';
import { payLinks, processorOrphans, transactions } from '../db/schema.js';
import { recordLinkIntent } from '../pay-page/stripe-intent.js';
import { IS_STATUS } from '../payments/state.js';
import { refundOrphan } from '../payments/stripe-orphans.js';
import type { StripeProcessor } from '../processor/stripe.js';
import { inTransaction } from '../operation.js';

/**
 * Reconciliation of the PaymentIntents Remit created for links (stripe-intent.ts): every one
 * created over the window is listed at Stripe (by its `remit_link` metadata) and compared with
 * what Remit recorded. Money kept without a record is recorded now (or, for a link that can no
 * longer be paid, refunded); an open PaymentIntent its link no longer uses is canceled; a record
 * without money is only listed (an operator must look); orphans whose refund failed are tried again.
 */

export type IntentProblem =
  /** Stripe kept money Remit had not recorded. */
  | 'money_without_record'
  /** Remit records a payment Stripe does not hold. */
  | 'record_without_money'
  /** Money taken for a link that could not be paid: given back (processor_orphans). */
  | 'orphan'
  /** An open PaymentIntent of a link that no longer uses it (paid by another, deleted). */
  | 'superseded';

export interface IntentMismatch {
  payment_intent: string;
  link_id: string | null;
  amount: number;
  status: string;
  problem: IntentProblem;
  /** What this pass did: recorded, refunded, canceled, pending (a bank debit still moving), failed, none. */
  action: string;
}

export interface IntentReconcileReport {
  /** PaymentIntents of links listed at Stripe over the window. */
  listed: number;
  mismatches: IntentMismatch[];
}

/** How far back PaymentIntents are listed (default two days: past Stripe's event retries). */
export const INTENT_WINDOW_MS = 2 * 86_400_000;

const keepsMoney = (pi: Stripe.PaymentIntent) => {
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const refunded = charge?.amount_refunded ?? 0;
  return (
    (pi.status === 'succeeded' && pi.amount_received - refunded > 0) ||
    pi.status === 'requires_capture' ||
    pi.status === 'processing'
  );
};

const OPEN = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

export async function reconcileIntents(ctx: Ctx, opts: { windowMs?: number } = {}): Promise<IntentReconcileReport> {
  const report: IntentReconcileReport = { listed: 0, mismatches: [] };
  const s = ctx.processor as Partial<StripeProcessor>;
  if (ctx.processor.name !== 'stripe' || !s.stripe) return report;
  const stripe = s.stripe;
  // No link ever had a PaymentIntent: nothing to list (an operator who takes no pay page payments asks Stripe nothing).
  const [any] = await ctx.db
    .select({ id: payLinks.id })
    .from(payLinks)
    .where(like(payLinks.stripeIntentId, 'pi_%'))
    .limit(1);
  if (!any) return report;
  const since = new Date(ctx.now().getTime() - (opts.windowMs ?? INTENT_WINDOW_MS));
  const intents: Stripe.PaymentIntent[] = [];
  for await (const pi of stripe.paymentIntents.list({
    created: { gte: Math.floor(since.getTime() / 1000) },
    limit: 100,
    expand: ['data.latest_charge', 'data.payment_method'],
  })) {
    if (pi.metadata?.remit_link) intents.push(pi);
  }
  report.listed = intents.length;
  const ids = intents.map((pi) => pi.id);
  const [records, orphans, links] = ids.length
    ? await Promise.all([
        ctx.db
          .select({ gatewayRef: transactions.gatewayRef, isStatus: transactions.isStatus })
          .from(transactions)
          .where(
            and(
              inArray(transactions.gatewayRef, ids),
              or(eq(transactions.type, 'Sale'), eq(transactions.type, 'PreAuth')),
            ),
          ),
        ctx.db.select().from(processorOrphans).where(inArray(processorOrphans.gatewayRef, ids)),
        ctx.db
          .select({
            id: payLinks.id,
            stripeIntentId: payLinks.stripeIntentId,
            status: payLinks.status,
            deletedAt: payLinks.deletedAt,
          })
          .from(payLinks)
          .where(
            inArray(
              payLinks.id,
              intents.map((pi) => pi.metadata.remit_link!),
            ),
          ),
      ])
    : [[], [], []];
  // Any record of the PaymentIntent but a declined attempt; of them, those that say money is kept now.
  const recorded = new Set(records.filter((r) => r.isStatus !== IS_STATUS.declined).map((r) => r.gatewayRef));
  const keeping: number[] = [IS_STATUS.pending, IS_STATUS.authorized, IS_STATUS.completed];
  const claimsMoney = new Set(records.filter((r) => keeping.includes(r.isStatus)).map((r) => r.gatewayRef));
  const orphaned = new Map(orphans.map((o) => [o.gatewayRef, o]));
  const linkOf = new Map(links.map((l) => [l.id, l]));

  for (const pi of intents) {
    const linkId = pi.metadata.remit_link!;
    const entry = (problem: IntentProblem, action: string) =>
      report.mismatches.push({
        payment_intent: pi.id,
        link_id: linkId,
        amount: pi.amount,
        status: pi.status,
        problem,
        action,
      });
    const orphan = orphaned.get(pi.id);
    if (orphan) {
      // Given back already; one whose refund failed or waited on a bank debit is tried again.
      const action =
        orphan.action === 'refunded' || orphan.action === 'canceled'
          ? orphan.action
          : await inTransaction(ctx, (tx, ctx) => refundOrphan(ctx, tx, pi, { linkId, reason: orphan.reason }));
      entry('orphan', action);
      continue;
    }
    if (keepsMoney(pi) && !recorded.has(pi.id)) {
      const r = await inTransaction(ctx, (tx, ctx) => recordLinkIntent(ctx, tx, pi, { from: 'reconcile' }));
      const given = r.kind === 'orphan' || r.kind === 'mismatch';
      entry(
        given ? 'orphan' : 'money_without_record',
        given ? 'refunded' : r.kind === 'paid' || r.kind === 'bank_verification' ? 'recorded' : 'none',
      );
      continue;
    }
    if (
      !keepsMoney(pi) &&
      claimsMoney.has(pi.id) &&
      !(pi.status === 'requires_action' && pi.next_action?.type === 'verify_with_microdeposits')
    ) {
      entry('record_without_money', 'none');
      continue;
    }
    const link = linkOf.get(linkId);
    if (OPEN.has(pi.status) && link && (link.stripeIntentId !== pi.id || link.deletedAt || link.status !== 'open')) {
      let action = 'canceled';
      try {
        await stripe.paymentIntents.cancel(pi.id, {}, { idempotencyKey: `remit_superseded_${pi.id}` });
      } catch {
        action = 'failed';
      }
      entry('superseded', action);
    }
  }

  // Orphans of PaymentIntents older than the window, still not given back.
  const left = await ctx.db
    .select()
    .from(processorOrphans)
    .where(inArray(processorOrphans.action, ['pending', 'failed']));
  for (const o of left) {
    if (orphaned.has(o.gatewayRef) || ids.includes(o.gatewayRef)) continue;
    const pi = await stripe.paymentIntents.retrieve(o.gatewayRef);
    const action = await inTransaction(ctx, (tx, ctx) =>
      refundOrphan(ctx, tx, pi, { linkId: o.payLinkId, reason: o.reason }),
    );
    report.mismatches.push({
      payment_intent: o.gatewayRef,
      link_id: o.payLinkId,
      amount: o.amountCents,
      status: pi.status,
      problem: 'orphan',
      action,
    });
  }
  return report;
}
