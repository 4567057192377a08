import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { payChallenges, payLinks, transactions } from '../db/schema.js';
import { IS_STATUS } from '../payments/state.js';
import { RemitError } from '../errors.js';
import { merchantNow } from '../clock.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { openLink } from './open-link.js';
import { widgetLinkFields } from './expiry.js';
import { errorMessage, type PayLinkInput, type PayLinkResult } from '@remit/contract';
import { assertPayable, linkTotals } from './totals.js';
import { releaseLinkIntent } from '../pay-page/stripe-intent.js';
import { inTransaction } from '../operation.js';

/**
 * `POST /pay-link`: a hosted page for an amount and its pending sale. Links of a merchant not yet
 * approved may be made (payments on them are refused). Without an order_id the link id is used.
 * `widget`: opened by the widget backend (it expires unpaid, see expiry.ts).
 */
export async function createPayLink(
  ctx: Ctx,
  merchant: Merchant,
  input: Omit<PayLinkInput, 'merchant_key'>,
  opts: { widget?: boolean } = {},
): Promise<PayLinkResult> {
  const amounts = { amountCents: input.amount, taxCents: 0, surchargeCents: 0, discountCents: 0, passFee: false };
  assertPayable(linkTotals(amounts, merchant), merchant.maxAmountCents);
  const at = merchantNow(ctx.now, merchant);
  // One statement writes the link and its sale: no transaction to open.
  const opened = await openLink(
    ctx,
    ctx.db,
    merchant,
    {
      kind: 'link',
      // Filled in below when absent: the order id then is the link id.
      orderId: input.order_id ?? '',
      invoiceNumber: input.invoice_number ?? null,
      amountCents: input.amount,
      allowCard: input.allow_card,
      allowAch: input.allow_ach,
      embedOrigin: input.embed_origin ?? null,
      ...(opts.widget && widgetLinkFields('link', at)),
    },
    at,
    { orderIdIsLinkId: input.order_id === undefined },
  );
  return { order_id: opened.orderId, link_id: opened.linkId, payment_link: opened.payLink, sales_id: opened.salesId };
}

export const LINK_NOT_FOUND = errorMessage('link_not_found');
export const LINK_PAID_MESSAGE =
  'This link has been paid and cannot be deleted: deleting it would not undo the payment. ' +
  'To give the money back, void or refund its sale (POST /order/sales-void, /order/sales-return).';
export const CARD_SAVED_MESSAGE =
  "The customer's card was saved through this link, so it cannot be deleted; the card stays on the customer.";

export interface DeletedPayLink {
  link_id: string;
}

/**
 * `DELETE /pay-link/{linkId}`: marks an unpaid link deleted and cancels its pending sale
 * (`status` 'cancelled', `is_status` stays 0: nothing was charged). Unknown, foreign and already
 * deleted links are all "Link not found". A paid link (card, authorization or a bank debit still
 * pending) is refused with 409: deleting never changes a payment. The link row is locked first, as
 * a payment attempt locks it, so a delete during a payment waits for it and then sees it paid.
 */
const LINK_PROCESSING_DELETE_MESSAGE =
  'A payment on this link is being confirmed with the processor; the link can be deleted once it is declined.';

export async function deletePayLink(ctx: Ctx, merchant: Merchant, linkId: string): Promise<DeletedPayLink> {
  const at = merchantNow(ctx.now, merchant);
  const done = await inTransaction(ctx, async (tx, ctx) => {
    const [link] = await tx
      .select({
        id: payLinks.id,
        status: payLinks.status,
        salesId: payLinks.salesId,
        stripeIntentId: payLinks.stripeIntentId,
      })
      .from(payLinks)
      .where(and(eq(payLinks.id, linkId), eq(payLinks.merchantId, merchant.id), isNull(payLinks.deletedAt)))
      .for('update');
    if (!link) throw new RemitError('link_not_found', LINK_NOT_FOUND);
    if (link.status === 'paid') throw new RemitError('link_not_deletable', LINK_PAID_MESSAGE);
    if (link.status === 'saved') throw new RemitError('link_not_deletable', CARD_SAVED_MESSAGE);
    const [sale] = link.salesId
      ? await tx.select({ isStatus: transactions.isStatus }).from(transactions).where(eq(transactions.id, link.salesId))
      : [];
    // A payment being confirmed with the processor may have charged: the link stays until it is settled.
    if (sale?.isStatus === IS_STATUS.processing)
      throw new RemitError('link_not_deletable', LINK_PROCESSING_DELETE_MESSAGE);
    // Stripe: the link's PaymentIntent is canceled first; one taking money is recorded, and the delete refused.
    const refused = await releaseLinkIntent(ctx, tx, link.stripeIntentId);
    if (refused) return { refused };
    await tx.update(payLinks).set({ status: 'deleted', deletedAt: at }).where(eq(payLinks.id, link.id));
    // An open 3-D Secure challenge keeps a card: it can no longer be answered, so it is forgotten now.
    await tx
      .update(payChallenges)
      .set({ status: 'failed', answeredAt: at, cardEnc: '' })
      .where(and(eq(payChallenges.payLinkId, link.id), eq(payChallenges.status, 'open')));
    if (link.salesId) {
      await tx
        .update(transactions)
        .set({ status: 'cancelled', updatedAt: at })
        .where(
          and(
            eq(transactions.id, link.salesId),
            eq(transactions.isStatus, IS_STATUS.pending),
            eq(transactions.status, 'pending'),
          ),
        );
    }
    return { deleted: { link_id: link.id } };
  });
  if ('refused' in done) throw done.refused;
  return done.deleted;
}
