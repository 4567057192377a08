import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { newId } from '../ids.js';
import { PROCESSOR_NEVER_MADE_MESSAGE } from '../payments/processing-charges.js';
import { stateColumns, stateOf } from '../payments/state.js';
import type { PaymentLookup } from '../processor/connector.js';
import { payAmounts } from './amounts.js';
import { loadLink, saleOf } from './lookup.js';
import { LINK_PROCESSING_MESSAGE, recordApproval, recordDecline, type Outcome, type Payable } from './payable.js';
import { merchantNow } from '../clock.js';

/**
 * A pay page card attempt whose processor answer never came (a timeout, a 5xx): the link's sale
 * is marked `processing` with the processor key it was sent with (its `gateway_ref` until
 * settled), and no other attempt is taken on the link until reconciliation or the processor's
 * webhook says what happened. Approved: the link is paid as if the answer had come. Declined, or
 * unknown to the processor after `ABSENT_AFTER_MS`: the attempt is recorded declined and the
 * link is open again.
 */

export async function markAttemptProcessing(
  tx: Tx,
  p: Payable,
  a: { key: string; brand: string; lastFour: string },
): Promise<Outcome> {
  await tx
    .update(transactions)
    .set({
      ...stateColumns('processing'),
      gatewayRef: a.key,
      cardBrand: a.brand,
      lastFour: a.lastFour,
      updatedAt: p.now,
    })
    .where(eq(transactions.id, p.sale.id));
  return { kind: 'done', result: { status: 'processing', message: LINK_PROCESSING_MESSAGE } };
}

/**
 * Settles the link's `processing` sale with what the processor says. The link is locked before
 * its sale, as every attempt locks them, so a webhook and a reconciliation pass wait in turn and
 * the second finds nothing to do. Answers whether anything changed.
 */
export async function settleLinkAttempt(
  ctx: Ctx,
  tx: Tx,
  linkId: string,
  lookup: PaymentLookup,
  absentIsFinal: boolean,
): Promise<boolean> {
  // A link cancelled or expired while its payment was unknown is still settled: money may have moved.
  const { link, merchant } = await loadLink(tx, ctx.now, linkId, 'pay', { lock: true, anyState: true });
  const sale = await saleOf(tx, link, { lock: true });
  if (!sale || stateOf(sale.isStatus) !== 'processing') return false;
  if (lookup.state === 'pending' || (lookup.state === 'absent' && !absentIsFinal)) return false;
  // No customer's page is at hand here: the receipt is in English, as after a 3-D Secure return.
  const p: Payable = { link, merchant, sale, now: merchantNow(ctx.now, merchant), locale: 'en' };
  const card = {
    amount: payAmounts(link, merchant).total.card,
    brand: sale.cardBrand ?? '',
    lastFour: sale.lastFour ?? '',
  };
  if (lookup.state === 'approved') {
    await recordApproval(ctx, tx, p, {
      ...card,
      authCode: lookup.authCode,
      gatewayRef: lookup.gatewayRef,
      paymentMethodId: null,
    });
    return true;
  }
  // The sale is open again, as before the attempt; the attempt is a declined transaction of its own.
  await tx
    .update(transactions)
    .set({ ...stateColumns('pending'), gatewayRef: null, cardBrand: '', lastFour: '', updatedAt: p.now })
    .where(eq(transactions.id, sale.id));
  const declined =
    lookup.state === 'declined'
      ? { gatewayRef: lookup.gatewayRef, code: lookup.code, message: lookup.message }
      : { gatewayRef: null, code: 'card_declined', message: PROCESSOR_NEVER_MADE_MESSAGE };
  await recordDecline(ctx, tx, p, { ...card, ...declined, id: newId.transaction() });
  return true;
}
