import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.js';
import { merchants, payLinks, transactions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { merchantNow, type Now } from '../clock.js';
import { isExpired } from '../links/expiry.js';

/**
 * The pay page's calls are authorized by the unguessable link id (or add-card token) alone: this
 * is where an id becomes a link, its merchant and its pending sale, and nothing else is reachable.
 */

export type LinkRow = typeof payLinks.$inferSelect;
export type SaleRow = typeof transactions.$inferSelect;

/** The merchant columns the pay page needs: name, state, pricing and clock. Never keys. */
const merchantColumns = {
  id: merchants.id,
  clientId: merchants.clientId,
  status: merchants.status,
  businessname: merchants.businessname,
  cardFeeRateE7: merchants.cardFeeRateE7,
  cardFeeFixedCents: merchants.cardFeeFixedCents,
  achFeeRateE7: merchants.achFeeRateE7,
  achFeeCapCents: merchants.achFeeCapCents,
  maxAmountCents: merchants.maxAmountCents,
  clockOffsetMs: merchants.clockOffsetMs,
  stripeAccountId: merchants.stripeAccountId,
  verification: merchants.verification,
};
export type PayMerchantRow = Pick<typeof merchants.$inferSelect, keyof typeof merchantColumns>;

export const LINK_NOT_FOUND_MESSAGE = 'This payment link does not exist. Check the address you were sent.';
export const LINK_CANCELLED_MESSAGE = 'The merchant cancelled this payment link; it can no longer be paid.';
export const LINK_EXPIRED_MESSAGE = 'This payment link has expired; ask the merchant for a new one.';
export const CARD_LINK_NOT_FOUND_MESSAGE = 'This add-card link does not exist. Check the address you were sent.';
export const CARD_LINK_CANCELLED_MESSAGE = 'This add-card link is no longer available.';

/** Link ids and add-card tokens are `ord_` + base62; anything else is unknown without a query. */
const LINK_ID = /^ord_[0-9A-Za-z]{1,64}$/;

export type LinkPurpose = 'pay' | 'card';

function missing(purpose: LinkPurpose) {
  return purpose === 'pay'
    ? new RemitError('link_not_found', LINK_NOT_FOUND_MESSAGE)
    : new RemitError('card_link_not_found', CARD_LINK_NOT_FOUND_MESSAGE);
}

export interface LoadedLink {
  link: LinkRow;
  merchant: PayMerchantRow;
}

/**
 * The link behind an id, for paying (`pay`: pay links, requests, authorization requests) or for
 * the add-card page (`card`: card_request links). Unknown, malformed or of the other purpose: 404;
 * deleted, or a widget link left unpaid past its expiry at `now`: 410. With `lock`, the link row stays locked until the caller's transaction ends, so two
 * attempts on one link run one after the other.
 */
export async function loadLink(
  db: Queryable,
  now: Now,
  id: string,
  purpose: LinkPurpose,
  opts: {
    lock?: boolean /** Settling money already moved: a cancelled or expired link is still settled. */;
    anyState?: boolean;
  } = {},
): Promise<LoadedLink> {
  if (!LINK_ID.test(id)) throw missing(purpose);
  const query = db
    .select({ link: payLinks, merchant: merchantColumns })
    .from(payLinks)
    .innerJoin(merchants, eq(merchants.id, payLinks.merchantId))
    .where(eq(payLinks.id, id));
  // Only the link row is locked: payments of one merchant's other links do not wait on each other.
  const [row] = opts.lock ? await query.for('update', { of: payLinks }) : await query;
  if (!row || (row.link.kind === 'card_request') !== (purpose === 'card')) throw missing(purpose);
  if (opts.anyState) return row;
  if (row.link.deletedAt) {
    throw purpose === 'pay'
      ? new RemitError('link_cancelled', LINK_CANCELLED_MESSAGE)
      : new RemitError('card_link_cancelled', CARD_LINK_CANCELLED_MESSAGE);
  }
  if (isExpired(row.link, merchantNow(now, row.merchant))) throw new RemitError('link_expired', LINK_EXPIRED_MESSAGE);
  return row;
}

/** The link's sale (pending until paid); locked with the link when paying. */
export async function saleOf(db: Queryable, link: LinkRow, opts: { lock?: boolean } = {}): Promise<SaleRow | null> {
  if (!link.salesId) return null;
  const query = db.select().from(transactions).where(eq(transactions.id, link.salesId));
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}
