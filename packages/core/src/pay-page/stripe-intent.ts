import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { PayResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { payLinks } from '../db/schema.js';
import { storeProcessorCard } from '../customers/vault.js';
import { invalid, notFound, RemitError } from '../errors.js';
import { isExpired } from '../links/expiry.js';
import { recordPaymentFailed } from '../payments/failed-event.js';
import { newId } from '../ids.js';
import { payeeOf } from '../payments/payee.js';
import { stateOf } from '../payments/state.js';
import { achResult } from '../payments/stripe-ach.js';
import { intentOutcome, type StripeProcessor } from '../processor/stripe.js';
import { refundOrphan } from '../payments/stripe-orphans.js';
import { payAmounts } from './amounts.js';
import { returnFromIssuer, type IssuerOutcome } from './issuer-challenge.js';
import {
  LINK_CANCELLED_MESSAGE,
  LINK_EXPIRED_MESSAGE,
  loadLink,
  saleOf,
  type LinkRow,
  type PayMerchantRow,
} from './lookup.js';
import {
  ALREADY_PAID_MESSAGE,
  lockPayable,
  recordApproval,
  recordBankDebit,
  recordDecline,
  THREE_DS_FAILED_MESSAGE,
  LINK_PROCESSING_MESSAGE,
  type Payable,
} from './payable.js';
import { receiptOf } from './view.js';
import { inTransaction } from '../operation.js';

/**
 * Stripe's Payment Element on the pay page (issue 37): the server creates the link's ONE
 * PaymentIntent, the browser confirms it with Stripe.js, and the payment is recorded once, by
 * whichever learns of it first: the page's report, Stripe's event, the return from a redirect,
 * or reconciliation. Each reads the PaymentIntent from Stripe (never the browser's word) and
 * records it through `recordLinkIntent`, with the link row locked: the second finds it recorded.
 * Money taken for a link that can no longer be paid (paid by another PaymentIntent, deleted,
 * expired) is given back at once (stripe-orphans.ts).
 */

/** The Stripe connector, or 404 when another processor runs (these calls exist with Stripe only). */
export function stripeOf(ctx: Pick<Ctx, 'processor'>): StripeProcessor {
  const p = ctx.processor as Partial<StripeProcessor>;
  if (ctx.processor.name !== 'stripe' || !p.stripe)
    throw notFound('route_not_found', 'Stripe intents exist only when REMIT_PROCESSOR=stripe.');
  return ctx.processor as StripeProcessor;
}

const INTENT_ID = /^pi_[0-9A-Za-z_]{1,200}$/;

/** Stripe's key for the link's PaymentIntent: the same for every call until the one before is canceled. */
const intentKey = (linkId: string, previous: string | null) =>
  `remit_intent_${createHash('sha256')
    .update(`${linkId}\n${previous ?? ''}`)
    .digest('hex')
    .slice(0, 48)}`;

/**
 * What the link is paid with in one PaymentIntent: card and/or bank, as the link allows. Its
 * amount and fee follow the method the customer picks (the totals differ when the fee is passed
 * on): `method` sets them, the card's when the link takes cards and nothing was picked yet.
 */
export function intentTerms(link: LinkRow, merchant: PayMerchantRow, picked?: 'card' | 'ach') {
  const totals = payAmounts(link, merchant).total;
  const card = link.allowCard;
  const bank = link.allowAch && !link.preauth;
  const types = [...(card ? ['card'] : []), ...(bank ? ['us_bank_account'] : [])];
  const method = picked ?? (card ? ('card' as const) : ('ach' as const));
  return { amount: method === 'card' ? totals.card : totals.ach, types, method, totals };
}

/** Stripe may change a PaymentIntent's amount only before it is confirmed. */
const amendable = (pi: Stripe.PaymentIntent) =>
  pi.status === 'requires_payment_method' || pi.status === 'requires_confirmation';

/** Statuses in which a PaymentIntent holds, moves or has taken money (or will, once verified). */
const inProgress = (pi: Stripe.PaymentIntent) =>
  pi.status === 'processing' ||
  pi.status === 'requires_capture' ||
  pi.status === 'succeeded' ||
  waitsForMicrodeposits(pi);

const waitsForMicrodeposits = (pi: Stripe.PaymentIntent) =>
  pi.status === 'requires_action' && pi.next_action?.type === 'verify_with_microdeposits';

const retrieve = (s: StripeProcessor, id: string) =>
  stripeCall(() => s.stripe.paymentIntents.retrieve(id, { expand: ['payment_method', 'latest_charge'] }));

/** A Stripe call whose failure changes nothing here: 502 processor_error. */
export async function stripeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw new RemitError('processor_error', undefined, { cause: e });
  }
}

/** A failure decided inside a transaction that must still commit what it recorded. */
type Committed<T> = { ok: T } | { error: RemitError };
const unwrap = <T>(c: Committed<T>): T => {
  if ('error' in c) throw c.error;
  return c.ok;
};

/**
 * `POST /pay/api/links/{link_id}/intent`: the client secret of the link's one PaymentIntent,
 * created on the first call (destination charge, our fee as the application fee, metadata naming
 * the link and its sale) and reused by every page load, tab and retry after it. A PaymentIntent
 * that already holds or moves money is recorded now and answered as the link's state.
 */
export async function linkIntent(
  ctx: Ctx,
  linkId: string,
  picked?: 'card' | 'ach',
): Promise<{ client_secret: string }> {
  const s = stripeOf(ctx);
  const done = await inTransaction(ctx, async (tx, ctx): Promise<Committed<string>> => {
    const { link, merchant } = await loadLink(tx, ctx.now, linkId, 'pay', { lock: true });
    const terms = intentTerms(link, merchant, picked);
    const p = await lockPayable(ctx, tx, linkId, terms.method);
    if (link.stripeIntentId) {
      const pi = await retrieve(s, link.stripeIntentId);
      if (inProgress(pi)) {
        const recorded = await recordLinkIntent(ctx, tx, pi, { from: 'intent' });
        // Refunded for an amount that was not the link's (the next PaymentIntent takes its place).
        if (recorded.kind !== 'mismatch') {
          return {
            error:
              recorded.kind === 'paid'
                ? new RemitError('link_already_paid', ALREADY_PAID_MESSAGE)
                : new RemitError('payment_processing', LINK_PROCESSING_MESSAGE),
          };
        }
      } else if (pi.status !== 'canceled' && pi.client_secret) {
        // Without `method`, the page starts on the first tab (card): a reload puts the amount back to its total.
        if (pi.amount === terms.amount) return { ok: pi.client_secret };
        // A 3-D Secure challenge open on it: the amount it asks for stays until it is answered.
        if (!amendable(pi)) return { error: new RemitError('payment_processing', LINK_PROCESSING_MESSAGE) };
        const payee = payeeOf(p.merchant, terms.method, terms.amount);
        // Setting the same values twice is harmless: no idempotency key (a key would replay a switch back).
        await stripeCall(() =>
          s.stripe.paymentIntents.update(pi.id, {
            amount: terms.amount,
            ...(payee ? { application_fee_amount: Math.min(payee.applicationFeeCents, terms.amount) } : {}),
          }),
        );
        return { ok: pi.client_secret };
      }
    }
    const { link: l, merchant: m, sale } = p;
    const keep = l.isRequestCard && l.customerId !== null;
    const customer = keep
      ? await stripeCall(() =>
          s.stripe.customers.create(
            { metadata: { remit_link: l.id } },
            { idempotencyKey: `${intentKey(l.id, l.stripeIntentId)}_cus` },
          ),
        )
      : null;
    const payee = payeeOf(m, terms.method, terms.amount);
    const pi = await stripeCall(() =>
      s.stripe.paymentIntents.create(
        {
          amount: terms.amount,
          currency: 'usd',
          allowed_payment_method_types: terms.types,
          capture_method: l.preauth ? 'manual' : 'automatic',
          ...(l.require3ds ? { payment_method_options: { card: { request_three_d_secure: 'challenge' } } } : {}),
          ...(customer ? { customer: customer.id, setup_future_usage: 'off_session' as const } : {}),
          ...(payee
            ? {
                on_behalf_of: payee.account,
                transfer_data: { destination: payee.account },
                application_fee_amount: Math.min(payee.applicationFeeCents, terms.amount),
              }
            : {}),
          metadata: {
            remit_link: l.id,
            remit_sale: sale.id,
            remit_merchant: m.id,
            remit_key: intentKey(l.id, l.stripeIntentId),
          },
          description: `${m.businessname}: order ${l.orderId}`,
        },
        { idempotencyKey: intentKey(l.id, l.stripeIntentId) },
      ),
    );
    await tx.update(payLinks).set({ stripeIntentId: pi.id }).where(eq(payLinks.id, l.id));
    return { ok: pi.client_secret! };
  });
  return { client_secret: unwrap(done) };
}

/** What became of a PaymentIntent when it was read and recorded. */
export type IntentRecord =
  | { kind: 'paid'; result: PayResult }
  | { kind: 'bank_verification'; result: PayResult }
  | { kind: 'processing' }
  | { kind: 'declined'; code: string; message: string }
  | { kind: 'open' }
  /** Nothing taken, and the link can no longer be paid (deleted, expired, paid by another): its own error. */
  | { kind: 'closed'; error: RemitError }
  /** Money taken for a link that cannot be paid: given back (`error`: the link's state). */
  | { kind: 'orphan'; error: RemitError }
  /** Money taken that is not the link's total for the method used: given back; the link stays open. */
  | { kind: 'mismatch'; error: RemitError }
  /** Not a link's PaymentIntent. */
  | { kind: 'none' };

const AMOUNT_MISMATCH_MESSAGE =
  "The amount paid was not this link's total for the payment method used, so it was refunded. Reload the page and pay again.";

const BANK_VERIFICATION_MESSAGE =
  'Stripe is sending two small deposits to your bank account (one to two business days). Follow the link to enter them; the payment completes once the account is verified.';

/** Stripe's brand (`visa`) as ours (`Visa`). */
export const stripeBrand = (b: string | undefined) =>
  b === 'visa'
    ? 'Visa'
    : b === 'mastercard'
      ? 'Mastercard'
      : b === 'amex'
        ? 'Amex'
        : b === 'discover'
          ? 'Discover'
          : b
            ? b[0]!.toUpperCase() + b.slice(1)
            : '';

function methodOf(pi: Stripe.PaymentIntent) {
  const pm = typeof pi.payment_method === 'object' ? pi.payment_method : null;
  if (pm?.type === 'us_bank_account')
    return { bank: true, brand: 'ACH', lastFour: pm.us_bank_account?.last4 ?? '', pm };
  const bank = pi.payment_method_types.length === 1 && pi.payment_method_types[0] === 'us_bank_account';
  return { bank, brand: stripeBrand(pm?.card?.brand), lastFour: pm?.card?.last4 ?? '', pm };
}

/**
 * Records the link's PaymentIntent `pi` (as just read from Stripe) once, in the caller's
 * transaction. `from: 'report'` also records a decline (the page saw it; events and returns do
 * not add a second row for it).
 */
export async function recordLinkIntent(
  ctx: Ctx,
  tx: Tx,
  pi: Stripe.PaymentIntent,
  opts: { from: 'report' | 'event' | 'return' | 'reconcile' | 'intent' | 'delete' },
): Promise<IntentRecord> {
  const linkId = pi.metadata?.remit_link;
  if (!linkId) return { kind: 'none' };
  let loaded;
  try {
    loaded = await loadLink(tx, ctx.now, linkId, 'pay', { lock: true, anyState: true });
  } catch (e) {
    if (e instanceof RemitError) return { kind: 'none' };
    throw e;
  }
  const { link, merchant } = loaded;
  const sale = await saleOf(tx, link, { lock: true });
  const now = merchantNow(ctx.now, merchant);
  const p: Payable = { link, merchant, sale: sale!, now, locale: 'en' };
  const method = methodOf(pi);

  // Already recorded by whichever came first.
  if (sale && sale.gatewayRef === pi.id && link.status === 'paid') {
    if (method.bank && opts.from === 'event') await settleBank(ctx, tx, pi);
    const result: PayResult = {
      status: 'paid',
      receipt: receiptOf(link, (await saleOf(tx, link))!, merchant.businessname),
    };
    return waitsForMicrodeposits(pi)
      ? { kind: 'bank_verification', result: verification(pi) }
      : { kind: 'paid', result };
  }
  const closed: RemitError | null = link.deletedAt
    ? new RemitError('link_cancelled', LINK_CANCELLED_MESSAGE)
    : link.status === 'paid' || !sale || sale.status !== 'pending' || stateOf(sale.isStatus) !== 'pending'
      ? new RemitError('link_already_paid', ALREADY_PAID_MESSAGE)
      : isExpired(link, now)
        ? new RemitError('link_expired', LINK_EXPIRED_MESSAGE)
        : link.stripeIntentId !== pi.id
          ? new RemitError('link_already_paid', 'This payment was replaced by another on the same link.')
          : null;
  if (inProgress(pi) && closed) {
    await refundOrphan(ctx, tx, pi, { linkId: link.id, reason: `${closed.code} (${opts.from})` });
    return { kind: 'orphan', error: closed };
  }
  if (closed) return { kind: 'closed', error: closed };
  // The amount is the server's (set for the tab picked); a page that paid by card at the bank's total is refunded.
  const due = payAmounts(link, merchant).total[method.bank ? 'ach' : 'card'];
  if (inProgress(pi) && pi.amount !== due) {
    await refundOrphan(ctx, tx, pi, {
      linkId: link.id,
      reason: `amount ${pi.amount} is not the link's ${method.bank ? 'bank' : 'card'} total ${due} (${opts.from})`,
    });
    return { kind: 'mismatch', error: new RemitError('payment_amount_mismatch', AMOUNT_MISMATCH_MESSAGE) };
  }

  if (method.bank && inProgress(pi)) {
    const outcome = await recordBankDebit(ctx, tx, p, {
      amount: pi.amount,
      lastFour: method.lastFour,
      gatewayRef: pi.id,
    });
    if (pi.status === 'succeeded') await achResult(tx, ctx, pi.id, { approved: true });
    if (waitsForMicrodeposits(pi)) return { kind: 'bank_verification', result: verification(pi) };
    return {
      kind: 'paid',
      result: outcome.kind === 'done' ? outcome.result : { status: 'processing', message: LINK_PROCESSING_MESSAGE },
    };
  }
  if (pi.status === 'succeeded' || pi.status === 'requires_capture') {
    const said = intentOutcome(pi);
    const authCode = said.state === 'approved' ? said.authCode : pi.id.slice(-6).toUpperCase();
    // isRequestCard: Stripe attached the card to the link's customer (setup_future_usage); we keep its token.
    const kept =
      link.isRequestCard && link.customerId !== null && method.pm && typeof pi.customer === 'string'
        ? await storeProcessorCard(
            tx,
            ctx,
            { merchantId: merchant.id, customerId: link.customerId, now },
            {
              token: `${pi.customer}/${method.pm.id}`,
              brand: method.brand,
              last4: method.lastFour,
              expMonth: method.pm.card?.exp_month ?? null,
              expYear: method.pm.card?.exp_year ?? null,
            },
          )
        : null;
    const outcome = await recordApproval(ctx, tx, p, {
      amount: pi.amount,
      brand: method.brand,
      lastFour: method.lastFour,
      authCode,
      gatewayRef: pi.id,
      paymentMethodId: kept?.id ?? null,
    });
    return {
      kind: 'paid',
      result: outcome.kind === 'done' ? outcome.result : { status: 'processing', message: LINK_PROCESSING_MESSAGE },
    };
  }
  if (pi.status === 'processing') return { kind: 'processing' };
  const said = intentOutcome(pi);
  if (said.state === 'declined' && pi.status === 'requires_payment_method') {
    const message = said.code === 'three_ds_failed' ? THREE_DS_FAILED_MESSAGE : said.message;
    // payment.failed comes from Stripe's own event (payment_intent.payment_failed), once per
    // decline, whether or not the page reports it; the page's report records the declined attempt.
    if (opts.from === 'report') {
      await recordDecline(
        ctx,
        tx,
        p,
        {
          id: newId.transaction(),
          amount: pi.amount,
          brand: method.brand,
          lastFour: method.lastFour,
          gatewayRef: pi.id,
          code: said.code,
          message,
        },
        { notify: false },
      );
    } else if (opts.from === 'event') {
      await recordPaymentFailed(
        { ...ctx, db: tx },
        {
          merchantId: merchant.id,
          clientId: merchant.clientId,
          orderId: link.orderId,
          amountCents: pi.amount,
          code: said.code,
          message,
          method: method.bank ? 'ach' : 'card',
        },
      );
    }
    return { kind: 'declined', code: said.code, message };
  }
  return { kind: 'open' };
}

const verification = (pi: Stripe.PaymentIntent): PayResult => ({
  status: 'bank_verification',
  message: BANK_VERIFICATION_MESSAGE,
  verification_url: pi.next_action?.verify_with_microdeposits?.hosted_verification_url ?? '',
});

/** A recorded bank debit that Stripe has since completed or failed. */
async function settleBank(ctx: Ctx, tx: Tx, pi: Stripe.PaymentIntent): Promise<void> {
  if (pi.status === 'succeeded') await achResult(tx, ctx, pi.id, { approved: true });
  else if (pi.status === 'requires_payment_method' || pi.status === 'canceled') {
    await achResult(tx, ctx, pi.id, {
      approved: false,
      message: pi.last_payment_error?.message ?? 'Returned by the bank',
    });
  }
}

/**
 * `POST /pay/api/links/{link_id}/intent/report` `{payment_intent}`: the page confirmed; the
 * PaymentIntent is read from Stripe and recorded (if nothing recorded it first).
 */
export async function reportLinkIntent(ctx: Ctx, linkId: string, intentId: string): Promise<PayResult> {
  const s = stripeOf(ctx);
  const { link } = await loadLink(ctx.db, ctx.now, linkId, 'pay', { anyState: true });
  if (!INTENT_ID.test(intentId))
    throw invalid('invalid_request', "payment_intent must be the id of this link's PaymentIntent (pi_…).", [
      { path: 'payment_intent', message: 'is not a PaymentIntent id' },
    ]);
  const pi = await retrieve(s, intentId);
  if (pi.metadata?.remit_link !== link.id) {
    throw invalid('invalid_request', "payment_intent is not this link's PaymentIntent.", [
      { path: 'payment_intent', message: 'belongs to no payment of this link' },
    ]);
  }
  const recorded = await inTransaction(ctx, (tx, ctx) => recordLinkIntent(ctx, tx, pi, { from: 'report' }));
  switch (recorded.kind) {
    case 'paid':
    case 'bank_verification':
      return recorded.result;
    case 'processing':
      return { status: 'processing', message: LINK_PROCESSING_MESSAGE };
    case 'declined':
      throw new RemitError(
        recorded.code === 'three_ds_failed' ||
          recorded.code === 'insufficient_funds' ||
          recorded.code === 'expired_card' ||
          recorded.code === 'incorrect_cvc'
          ? recorded.code
          : 'card_declined',
        recorded.message,
      );
    case 'orphan':
    case 'mismatch':
    case 'closed':
      throw recorded.error;
    default:
      // Not confirmed yet (3-D Secure still open, or nothing entered): nothing to record.
      throw new RemitError(
        'payment_processing',
        'This payment is not confirmed yet: complete it in the payment form, then try again.',
      );
  }
}

/**
 * A Stripe event about a PaymentIntent Remit created for a link: the PaymentIntent is read from
 * Stripe (the event's copy may be stale or out of order) and recorded. Answers whether anything
 * was about a link.
 */
export async function linkIntentEvent(tx: Tx, ctx: Ctx, intentId: string): Promise<boolean> {
  const pi = await retrieve(stripeOf(ctx), intentId);
  const recorded = await recordLinkIntent(ctx, tx, pi, { from: 'event' });
  return recorded.kind !== 'none' && recorded.kind !== 'open' && recorded.kind !== 'closed';
}

/**
 * `GET /pay/{link_id}/return` for a link with a PaymentIntent (a redirect after 3-D Secure or a
 * bank's page): read and recorded. Null when the link has none.
 */
export async function returnToLinkIntent(
  ctx: Ctx,
  linkId: string,
): Promise<'paid' | 'open' | { declined: string } | null> {
  if (ctx.processor.name !== 'stripe') return null;
  let link: LinkRow;
  try {
    ({ link } = await loadLink(ctx.db, ctx.now, linkId, 'pay', { anyState: true }));
  } catch {
    return null;
  }
  if (!link.stripeIntentId) return null;
  const pi = await retrieve(stripeOf(ctx), link.stripeIntentId);
  const recorded = await inTransaction(ctx, (tx, ctx) => recordLinkIntent(ctx, tx, pi, { from: 'return' }));
  if (recorded.kind === 'declined') return { declined: recorded.code };
  return recorded.kind === 'paid' || recorded.kind === 'bank_verification' ? 'paid' : 'open';
}

/**
 * `GET /pay/{link_id}/return`: the link's PaymentIntent when it has one (the Payment Element),
 * else the open 3-D Secure challenge of the earlier flow (issuer-challenge.ts).
 */
export async function returnToPayPage(ctx: Ctx, linkId: string): Promise<IssuerOutcome> {
  const intent = await returnToLinkIntent(ctx, linkId);
  if (intent !== null) return intent === 'open' ? 'waiting' : intent;
  return returnFromIssuer(ctx, linkId);
}

export const PAYMENT_IN_PROGRESS_DELETE_MESSAGE =
  'A payment on this link is in progress at Stripe; the link can be deleted once it is declined, or refunded once it completes.';

/**
 * Deleting a link (in the caller's transaction, the link locked): its open PaymentIntent is
 * canceled at Stripe first, so it can no longer take money. One that already holds or moves
 * money is recorded and the delete refused (409), committed with what it recorded.
 */
export async function releaseLinkIntent(ctx: Ctx, tx: Tx, intentId: string | null): Promise<RemitError | null> {
  if (!intentId || ctx.processor.name !== 'stripe') return null;
  const s = stripeOf(ctx);
  let pi = await retrieve(s, intentId);
  if (pi.status !== 'canceled' && !inProgress(pi)) {
    try {
      pi = await s.stripe.paymentIntents.cancel(pi.id, {}, { idempotencyKey: `remit_release_${pi.id}` });
    } catch {
      // Confirmed meanwhile: Stripe refuses the cancel; read what it holds now.
      pi = await retrieve(s, intentId);
    }
  }
  if (pi.status === 'canceled') return null;
  if (!inProgress(pi)) return new RemitError('link_not_deletable', PAYMENT_IN_PROGRESS_DELETE_MESSAGE);
  await recordLinkIntent(ctx, tx, pi, { from: 'delete' });
  return new RemitError('link_not_deletable', PAYMENT_IN_PROGRESS_DELETE_MESSAGE);
}
