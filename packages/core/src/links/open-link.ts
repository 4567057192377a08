import type { Ctx } from '../context.js';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.js';
import { payLinks, transactions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { newId } from '../ids.js';
import { givenKeys, placeholderNames, preparedByShape } from '../db/prepared-sql.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { requireChargesEnabled } from '../merchants/verification.js';
import { linkTotals, type LinkTotals } from './totals.js';

/** Plain pay link, `/requests` payment request, customer authorization request. */
export type LinkKind = 'link' | 'request' | 'customer_request';

/** `order_createdfrom` of the pending sale each kind opens. */
export const ORDER_CREATED_FROM: Record<LinkKind, string> = {
  link: 'PayLink',
  request: 'Request',
  customer_request: 'CustomerRequest',
};

export type NewLink = Omit<typeof payLinks.$inferInsert, 'id' | 'merchantId' | 'status' | 'salesId' | 'createdAt'> & {
  kind: LinkKind;
};

export interface OpenedLink {
  linkId: string;
  salesId: string;
  orderId: string;
  payLink: string;
  totals: LinkTotals;
}

export const payLinkUrl = (ctx: Pick<Ctx, 'publicUrl'>, linkId: string) => `${ctx.publicUrl}/pay/${linkId}`;

/**
 * Writes a pay link and its pending sale (fee 0 until paid). A `/requests` order_id already used by
 * the merchant fails as `order_id_exists`: the insert skips on the partial unique index instead of
 * raising, which also settles two concurrent requests; that takes two statements, run in the
 * caller's transaction. Other kinds cannot collide: both rows go in one statement (a data-modifying
 * CTE, atomic on its own, one round trip), so a caller with nothing else to write needs no transaction.
 */
export async function openLink(
  ctx: Ctx,
  tx: Queryable,
  merchant: Merchant,
  input: NewLink,
  at: Date,
  opts: { orderIdIsLinkId?: boolean } = {},
): Promise<OpenedLink> {
  // Links of a pending merchant may be made; none while the processor holds its charges off.
  requireChargesEnabled(merchant);
  const linkId = newId.payLink();
  const link = opts.orderIdIsLinkId ? { ...input, orderId: linkId } : input;
  const salesId = newId.transaction();
  const totals = linkTotals(
    {
      amountCents: link.amountCents,
      taxCents: link.taxCents ?? 0,
      surchargeCents: link.surchargeCents ?? 0,
      discountCents: link.discountCents ?? 0,
      passFee: link.passFee ?? false,
    },
    merchant,
  );
  const linkRow = { ...link, id: linkId, merchantId: merchant.id, status: 'open', salesId, createdAt: at };
  const saleRow = {
    id: salesId,
    merchantId: merchant.id,
    type: link.preauth ? 'PreAuth' : 'Sale',
    paymentMethod: 'card',
    isStatus: 0,
    status: 'pending',
    amountCents: totals.total,
    feeCents: 0,
    feeRateE7: 0,
    netCents: totals.total,
    payLinkId: linkId,
    customerId: link.customerId ?? null,
    orderId: link.orderId,
    invoiceNumber: link.invoiceNumber ?? null,
    orderCreatedfrom: ORDER_CREATED_FROM[link.kind],
    createdAt: at,
    updatedAt: at,
  } satisfies typeof transactions.$inferInsert;
  if (link.kind !== 'request') {
    await insertPair(tx, linkRow, saleRow);
    return { linkId, salesId, orderId: link.orderId, payLink: payLinkUrl(ctx, linkId), totals };
  }
  const inserted = await tx.insert(payLinks).values(linkRow).onConflictDoNothing().returning({ id: payLinks.id });
  if (inserted.length === 0) {
    throw new RemitError(
      'order_id_exists',
      `A payment request with order_id "${link.orderId}" already exists for this merchant; use a new order_id.`,
      { errors: [{ path: 'order_id', message: 'is already used by another payment request of this merchant' }] },
    );
  }
  await tx.insert(transactions).values(saleRow);
  return { linkId, salesId, orderId: link.orderId, payLink: payLinkUrl(ctx, linkId), totals };
}

type LinkRow = typeof payLinks.$inferInsert;
type SaleRow = typeof transactions.$inferInsert;

/** Prepared link + sale inserts, one per set of columns given (the rest take their defaults). */
const pairs = preparedByShape('remit_open_link_');

/**
 * The link and its sale in one statement (a data-modifying CTE), prepared: the SQL is built once per
 * shape, each call only binds the values (building it per call was costly: docs/benchmarks.md).
 */
async function insertPair(tx: Queryable, linkRow: LinkRow, saleRow: SaleRow): Promise<void> {
  const linkKeys = givenKeys(linkRow);
  const saleKeys = givenKeys(saleRow);
  const shape = `${linkKeys.join(',')}|${saleKeys.join(',')}`;
  const p = pairs(shape, () =>
    pairSql(tx, placeholders(linkKeys, linkNames) as LinkRow, placeholders(saleKeys, saleNames) as SaleRow),
  );
  if (!p) {
    await tx.execute(pairSql(tx, linkRow, saleRow));
    return;
  }
  const values: Record<string, unknown> = {};
  for (const k of linkKeys) values[linkNames(k)] = linkRow[k];
  for (const k of saleKeys) values[saleNames(k)] = saleRow[k];
  await p.run(tx, values);
}

const pairSql = (tx: Queryable, l: LinkRow, t: SaleRow) =>
  sql`with link as (${tx.insert(payLinks).values(l).getSQL()}) ${tx.insert(transactions).values(t).getSQL()}`;
const placeholders = (keys: string[], nameOf: (key: string) => string): object =>
  Object.fromEntries(keys.map((k) => [k, sql.placeholder(nameOf(k))]));
const linkNames = placeholderNames('l_');
const saleNames = placeholderNames('s_');
