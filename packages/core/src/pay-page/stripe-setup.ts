import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AddCardResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { payLinks } from '../db/schema.js';
import { storeProcessorBankAccount, storeProcessorCard } from '../customers/vault.js';
import { invalid, RemitError } from '../errors.js';
import { savedThroughLink } from './add-card.js';
import { loadLink } from './lookup.js';
import { stripeBrand, stripeCall, stripeOf } from './stripe-intent.js';

/**
 * The add-card page with Stripe: a SetupIntent for a new Stripe Customer (usage off_session),
 * confirmed by the page with `stripe.confirmSetup`; its PaymentMethod is then kept as the
 * customer's card or bank account (the token `cus_…/pm_…`), charged later by `POST /customers/charge`
 * (a bank account as an off-session us_bank_account PaymentIntent, an ACH debit pending until Stripe's events).
 */

const SETUP_ID = /^seti_[0-9A-Za-z_]{1,200}$/;
const setupKey = (token: string, previous: string | null) =>
  `remit_setup_${createHash('sha256')
    .update(`${token}\n${previous ?? ''}`)
    .digest('hex')
    .slice(0, 48)}`;

const ALREADY_SAVED = 'A card was already added through this link.';

/** `POST /pay/api/cards/{token}/intent`: the add-card link's SetupIntent, created once and reused. */
export async function cardIntent(ctx: Ctx, token: string): Promise<{ client_secret: string }> {
  const s = stripeOf(ctx);
  const answer = await ctx.db.transaction(async (tx): Promise<{ client_secret: string } | { succeeded: string }> => {
    const { link } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (link.paymentMethodId || !link.customerId) throw new RemitError('card_already_saved', ALREADY_SAVED);
    if (link.stripeIntentId) {
      const si = await stripeCall(() => s.stripe.setupIntents.retrieve(link.stripeIntentId!));
      // Verified by microdeposits since the page last reported: keep it now.
      if (si.status === 'succeeded') return { succeeded: si.id };
      if (si.status !== 'canceled' && si.client_secret) return { client_secret: si.client_secret };
    }
    const key = setupKey(link.id, link.stripeIntentId);
    const customer = await stripeCall(() =>
      s.stripe.customers.create({ metadata: { remit_link: link.id } }, { idempotencyKey: `${key}_cus` }),
    );
    const si = await stripeCall(() =>
      s.stripe.setupIntents.create(
        // A bank account too: verified at once (Financial Connections) or by microdeposits, with Stripe's mandate.
        {
          customer: customer.id,
          usage: 'off_session',
          allowed_payment_method_types: ['card', 'us_bank_account'],
          metadata: { remit_link: link.id },
        },
        { idempotencyKey: key },
      ),
    );
    await tx.update(payLinks).set({ stripeIntentId: si.id }).where(eq(payLinks.id, link.id));
    return { client_secret: si.client_secret! };
  });
  if ('client_secret' in answer) return answer;
  await reportCardIntent(ctx, token, answer.succeeded);
  throw new RemitError('card_already_saved', ALREADY_SAVED);
}

/** `POST /pay/api/cards/{token}/intent/report` `{setup_intent}`: read from Stripe; a succeeded one is kept once. */
export async function reportCardIntent(ctx: Ctx, token: string, setupId: string): Promise<AddCardResult> {
  const s = stripeOf(ctx);
  if (!SETUP_ID.test(setupId)) {
    throw invalid('invalid_request', "setup_intent must be the id of this link's SetupIntent (seti_…).", [
      { path: 'setup_intent', message: 'is not a SetupIntent id' },
    ]);
  }
  const si = await stripeCall(() => s.stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] }));
  return ctx.db.transaction(async (tx) => {
    const { link, merchant } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (si.metadata?.remit_link !== link.id || link.stripeIntentId !== si.id) {
      throw invalid('invalid_request', "setup_intent is not this link's SetupIntent.", [
        { path: 'setup_intent', message: 'belongs to another link' },
      ]);
    }
    const pm = typeof si.payment_method === 'object' ? si.payment_method : null;
    if (link.paymentMethodId) {
      // The same report again (or a second tab): the card it saved.
      return { status: 'saved', brand: brandOf(pm), last_four: lastFourOf(pm) };
    }
    if (si.status === 'requires_action' && si.next_action?.type === 'verify_with_microdeposits') {
      const url = si.next_action.verify_with_microdeposits?.hosted_verification_url ?? '';
      throw new RemitError('bank_verification_pending', `${BANK_PENDING_MESSAGE} ${url}`.trim());
    }
    if (si.status !== 'succeeded' || !pm || typeof si.customer !== 'string' || !link.customerId) {
      const message = si.last_setup_error?.message ?? 'The card was not saved: complete the form, then try again.';
      throw new RemitError(si.last_setup_error ? 'card_declined' : 'invalid_request', message);
    }
    const now = merchantNow(ctx.now, merchant);
    const owner = { merchantId: merchant.id, customerId: link.customerId, now };
    if (pm.type === 'us_bank_account' && pm.us_bank_account) {
      const bank = await storeProcessorBankAccount(tx, ctx, owner, {
        token: `${si.customer}/${pm.id}`,
        last4: pm.us_bank_account.last4 ?? '',
        bankName: pm.us_bank_account.bank_name ?? '',
        accountType: pm.us_bank_account.account_type ?? null,
        holderName: pm.billing_details?.name ?? null,
      });
      await savedThroughLink(tx, link.id, link.customerId, bank.id, now);
      return { status: 'saved', brand: bank.brand ?? '', last_four: bank.last4 };
    }
    const method = await storeProcessorCard(tx, ctx, owner, {
      token: `${si.customer}/${pm.id}`,
      brand: brandOf(pm),
      last4: pm.card?.last4 ?? '',
      expMonth: pm.card?.exp_month ?? null,
      expYear: pm.card?.exp_year ?? null,
    });
    await savedThroughLink(tx, link.id, link.customerId, method.id, now);
    return { status: 'saved', brand: method.brand ?? '', last_four: method.last4 };
  });
}

const brandOf = (pm: Stripe.PaymentMethod | null) =>
  pm?.type === 'us_bank_account' ? (pm.us_bank_account?.bank_name ?? '') : stripeBrand(pm?.card?.brand);
const lastFourOf = (pm: Stripe.PaymentMethod | null) => pm?.card?.last4 ?? pm?.us_bank_account?.last4 ?? '';

const BANK_PENDING_MESSAGE =
  "Stripe is sending a small deposit to this bank account (1–2 business days). Enter its code or amounts on Stripe's page, then open this page again:";
