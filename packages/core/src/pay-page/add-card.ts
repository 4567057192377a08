import { and, eq } from 'drizzle-orm';
import type { AddCardRequest, AddCardResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { payLinks, paymentMethods } from '../db/schema.js';
import { checkCard, storeCard } from '../customers/vault.js';
import { RemitError } from '../errors.js';
import { parsePayCard } from './inputs.js';
import { loadLink } from './lookup.js';

/**
 * `POST /pay/api/cards/{token}`: the hosted add-card page that `request-card` sends. The card is
 * stored on the customer (encrypted, never its CVC) and becomes the default method; nothing is
 * charged. One card per token: the link row is locked, and a second add is refused.
 */
export async function addCardFromLink(ctx: Ctx, token: string, input: AddCardRequest): Promise<AddCardResult> {
  const card = parsePayCard(input.card);
  return ctx.db.transaction(async (tx) => {
    const { link, merchant } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (link.paymentMethodId || !link.customerId) {
      throw new RemitError('card_already_saved', 'A card was already added through this link.');
    }
    const now = merchantNow(ctx.now, merchant);
    const brand = checkCard(ctx, card, now);
    const method = await storeCard(tx, ctx, { merchantId: merchant.id, customerId: link.customerId, now }, card, brand);
    // The card the customer just gave is the one future charges use.
    await tx
      .update(paymentMethods)
      .set({ isDefault: false })
      .where(and(eq(paymentMethods.customerId, link.customerId), eq(paymentMethods.isDefault, true)));
    await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, method.id));
    await tx.update(payLinks).set({ status: 'saved', paymentMethodId: method.id, paidAt: now }).where(eq(payLinks.id, link.id));
    return { status: 'saved', brand, last_four: method.last4 };
  });
}
