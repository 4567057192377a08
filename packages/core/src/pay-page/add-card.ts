import { and, eq } from 'drizzle-orm';
import type { AddCardRequest, AddCardResult } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { payLinks, paymentMethods } from '../db/schema.js';
import { checkCard, refuseCardNumbers, storeCard } from '../customers/vault.js';
import { RemitError } from '../errors.js';
import { parsePayCard } from './inputs.js';
import { loadLink } from './lookup.js';

/**
 * `POST /pay/api/cards/{token}`: the hosted add-card page that `request-card` sends. The card is
 * stored on the customer (encrypted, never its CVC) and becomes the default method; nothing is
 * charged. One card per token: the link row is locked, and a second add is refused.
 */
export async function addCardFromLink(ctx: Ctx, token: string, input: AddCardRequest): Promise<AddCardResult> {
  refuseCardNumbers(ctx);
  const card = parsePayCard(input.card);
  return ctx.db.transaction(async (tx) => {
    const { link, merchant } = await loadLink(tx, ctx.now, token, 'card', { lock: true });
    if (link.paymentMethodId || !link.customerId) {
      throw new RemitError('card_already_saved', 'A card was already added through this link.');
    }
    const now = merchantNow(ctx.now, merchant);
    const brand = checkCard(ctx, card, now);
    const method = await storeCard(tx, ctx, { merchantId: merchant.id, customerId: link.customerId, now }, card, brand);
    await savedThroughLink(tx, link.id, link.customerId, method.id, now);
    return { status: 'saved', brand, last_four: method.last4 };
  });
}

/** The card the customer just gave becomes the one future charges use, and the add-card link is done. */
export async function savedThroughLink(
  tx: Queryable,
  linkId: string,
  customerId: number,
  methodId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(paymentMethods)
    .set({ isDefault: false })
    .where(and(eq(paymentMethods.customerId, customerId), eq(paymentMethods.isDefault, true)));
  await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, methodId));
  await tx
    .update(payLinks)
    .set({ status: 'saved', paymentMethodId: methodId, paidAt: now })
    .where(eq(payLinks.id, linkId));
}
