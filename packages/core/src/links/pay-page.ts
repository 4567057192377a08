import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { merchants, payLinks, transactions } from '../db/schema.js';
import { linkTotals, type LinkTotals } from './totals.js';

/** What the public hosted page may show about a link: no keys, no customer contact data. */
export interface PayPageView {
  linkId: string;
  businessName: string;
  /** The merchant is not approved yet: payments are refused until it is. */
  merchantPending: boolean;
  orderId: string;
  invoiceNumber: string | null;
  description: string | null;
  totals: LinkTotals;
  allowCard: boolean;
  allowAch: boolean;
  preauth: boolean;
  /** open: awaiting payment; paid: the sale is no longer pending. */
  state: 'open' | 'paid';
}

export type PayPageLookup = { found: false } | { found: true; deleted: true } | ({ found: true; deleted: false } & PayPageView);

/** The link behind `GET /pay/{linkId}`, with what its customer pays. */
export async function payPageView(ctx: Pick<Ctx, 'db'>, linkId: string): Promise<PayPageLookup> {
  if (!/^ord_[0-9A-Za-z]{1,64}$/.test(linkId)) return { found: false };
  const [row] = await ctx.db
    .select({ link: payLinks, merchant: merchants, saleStatus: transactions.status })
    .from(payLinks)
    .innerJoin(merchants, eq(merchants.id, payLinks.merchantId))
    .leftJoin(transactions, eq(transactions.id, payLinks.salesId))
    .where(eq(payLinks.id, linkId))
    .limit(1);
  if (!row) return { found: false };
  const { link, merchant } = row;
  if (link.deletedAt) return { found: true, deleted: true };
  return {
    found: true,
    deleted: false,
    linkId: link.id,
    businessName: merchant.businessname,
    merchantPending: merchant.status !== 'approved',
    orderId: link.orderId,
    invoiceNumber: link.invoiceNumber,
    description: link.description,
    totals: linkTotals(link, merchant),
    allowCard: link.allowCard,
    allowAch: link.allowAch,
    preauth: link.preauth,
    state: row.saleStatus === null || row.saleStatus === 'pending' ? 'open' : 'paid',
  };
}
