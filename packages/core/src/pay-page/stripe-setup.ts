import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { AddCardResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { payLinks } from '../db/schema.js';
import { storeProcessorCard } from '../customers/vault.js';
import { invalid, RemitError } from '../errors.js';
import { savedThroughLink } from './add-card.js';
import { loadLink } from './lookup.js';
import { stripeBrand, stripeCall, stripeOf } from './stripe-intent.js';

/**
 * The add-card page with Stripe: a SetupIntent for a new Stripe Customer (usage off_session),
 * confirmed by the page with `stripe.confirmSetup`; its PaymentMethod is then kept as the
 * customer's card (the token `cus_…/pm_…`), charged later by `POST /customers/charge`.
 */

const SETUP_ID = /^seti_[0-9A-Za-z_]{1,200}$/;
const setupKey = (token: string, previous: string | null) =>
  `remit_setup_${createHash('sha256').update(`${token}\n${previous ?? ''}`).digest('hex').slice(0, 48)}`;

const ALREADY_SAVED = 'A card was already added through this link.';

/** `POST /pay/api/cards/{token}/intent`: the add-card link's SetupIntent, created once and reused. */
export async function cardIntent(ctx: Ctx, token: string): Promise<{ client_secret: string }> {
  const s = stripeOf(ctx);
  return ctx.db.transaction(async (tx) => {
    const { link } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (link.paymentMethodId || !link.customerId) throw new RemitError('card_already_saved', ALREADY_SAVED);
    if (link.stripeIntentId) {
      const si = await stripeCall(() => s.stripe.setupIntents.retrieve(link.stripeIntentId!));
      if (si.status !== 'canceled' && si.status !== 'succeeded' && si.client_secret) return { client_secret: si.client_secret };
    }
    const key = setupKey(link.id, link.stripeIntentId);
    const customer = await stripeCall(() => s.stripe.customers.create({ metadata: { remit_link: link.id } }, { idempotencyKey: `${key}_cus` }));
    const si = await stripeCall(() =>
      s.stripe.setupIntents.create(
        { customer: customer.id, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: { remit_link: link.id } },
        { idempotencyKey: key },
      ),
    );
    await tx.update(payLinks).set({ stripeIntentId: si.id }).where(eq(payLinks.id, link.id));
    return { client_secret: si.client_secret! };
  });
}

/** `POST /pay/api/cards/{token}/intent/report` `{setup_intent}`: read from Stripe; a succeeded one is kept once. */
export async function reportCardIntent(ctx: Ctx, token: string, setupId: string): Promise<AddCardResult> {
  const s = stripeOf(ctx);
  if (!SETUP_ID.test(setupId)) {
    throw invalid('invalid_request', 'setup_intent must be the id of this link\'s SetupIntent (seti_…).', [{ path: 'setup_intent', message: 'is not a SetupIntent id' }]);
  }
  const si = await stripeCall(() => s.stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] }));
  return ctx.db.transaction(async (tx) => {
    const { link, merchant } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (si.metadata?.remit_link !== link.id || link.stripeIntentId !== si.id) {
      throw invalid('invalid_request', "setup_intent is not this link's SetupIntent.", [{ path: 'setup_intent', message: 'belongs to another link' }]);
    }
    const pm = typeof si.payment_method === 'object' ? si.payment_method : null;
    if (link.paymentMethodId) {
      // The same report again (or a second tab): the card it saved.
      return { status: 'saved', brand: brandOf(pm), last_four: pm?.card?.last4 ?? '' };
    }
    if (si.status !== 'succeeded' || !pm || typeof si.customer !== 'string' || !link.customerId) {
      const message = si.last_setup_error?.message ?? 'The card was not saved: complete the form, then try again.';
      throw new RemitError(si.last_setup_error ? 'card_declined' : 'invalid_request', message);
    }
    const now = merchantNow(ctx.now, merchant);
    const method = await storeProcessorCard(tx, ctx, { merchantId: merchant.id, customerId: link.customerId, now }, {
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

const brandOf = (pm: Stripe.PaymentMethod | null) => stripeBrand(pm?.card?.brand);
