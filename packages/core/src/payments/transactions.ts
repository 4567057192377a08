import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { DEFAULT_LIMIT, type GetTransactionInput, type ListTransactionsInput, type TransactionDetail, type TransactionExtras, type TransactionListItem } from '@remit/contract';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactionCounts, transactions } from '../db/schema.js';
import { notFound } from '../errors.js';
import { merchantForKey } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount, formatRate } from '../money.js';
import { merchantNow } from '../clock.js';
import { isSettled } from './settlement.js';

/** Transaction queries: `GET /merchant/transactions` and `GET /merchant/transactions/{id}`. */

export type TransactionRow = typeof transactions.$inferSelect;

/** The columns both views read: the page query selects only these. */
const viewColumns = {
  id: transactions.id,
  amountCents: transactions.amountCents,
  createdAt: transactions.createdAt,
  feeRateE7: transactions.feeRateE7,
  netCents: transactions.netCents,
  authCode: transactions.authCode,
  cardBrand: transactions.cardBrand,
  lastFour: transactions.lastFour,
  status: transactions.status,
  isStatus: transactions.isStatus,
  type: transactions.type,
  paymentMethod: transactions.paymentMethod,
  settled: transactions.settled,
  completedAt: transactions.completedAt,
  orderId: transactions.orderId,
};
type ViewRow = Pick<TransactionRow, keyof typeof viewColumns>;

const extras = (t: ViewRow): TransactionExtras => ({
  status: t.status,
  is_status: t.isStatus,
  type: t.type,
  payment_method: t.paymentMethod,
  settled: t.settled,
  order_id: t.orderId ?? '',
});

/** A row as a list item; `net_amount` keeps the stored sign (refunds and voids are negative). */
export function toListItem(t: ViewRow): TransactionListItem {
  return {
    transaction_id: t.id,
    amount: formatAmount(t.amountCents),
    created_date: t.createdAt.toISOString(),
    fee_percentage: formatRate(t.feeRateE7),
    net_amount: amountNumber(t.netCents),
    other_details: { auth_code: t.authCode, card_brand: t.cardBrand, last_four: t.lastFour },
    ...extras(t),
  };
}

/** A row as the single-transaction shape, whose names differ from the list item's (spec). */
export function toDetail(t: ViewRow): TransactionDetail {
  return {
    transaction_id: t.id,
    amount: formatAmount(t.amountCents),
    transaction_date: t.createdAt.toISOString(),
    fee_percentage: formatRate(t.feeRateE7),
    net_amount: amountNumber(t.netCents),
    other_details: { authcode: t.authCode, cardType: t.cardBrand, lastFourDigits: t.lastFour },
    ...extras(t),
  };
}

const DAY_MS = 86_400_000;

/**
 * Both ends of created_at are always bounded (±infinity when not given): with a range on the
 * index's second column the planner walks (merchant_id, created_at, id) backwards for the page
 * and counts from the index even without table statistics, which PGlite never gathers itself.
 */
function rangeFilter(merchantId: string, input: ListTransactionsInput): SQL {
  const from = input.from_date ? sql`${`${input.from_date}T00:00:00.000Z`}::timestamptz` : sql`'-infinity'::timestamptz`;
  // Inclusive end day: everything before the next midnight UTC.
  const to = input.to_date
    ? sql`${new Date(Date.parse(`${input.to_date}T00:00:00.000Z`) + DAY_MS).toISOString()}::timestamptz`
    : sql`'infinity'::timestamptz`;
  return and(eq(transactions.merchantId, merchantId), sql`${transactions.createdAt} >= ${from}`, sql`${transactions.createdAt} < ${to}`)!;
}

/**
 * How many transactions match: a sum over the per-day counts the database keeps (dates filter whole
 * UTC days, so the days in range are exactly the rows in range), not a count over every row.
 */
async function countTransactions(db: Queryable, merchantId: string, input: ListTransactionsInput): Promise<number> {
  const [row] = await db
    .select({ n: sql<string | null>`sum(${transactionCounts.n})` })
    .from(transactionCounts)
    .where(
      and(
        eq(transactionCounts.merchantId, merchantId),
        input.from_date ? gte(transactionCounts.day, input.from_date) : undefined,
        input.to_date ? lte(transactionCounts.day, input.to_date) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * One page of a merchant's transactions, newest first (ties by id), and the count of all that
 * match: the page from the (merchant_id, created_at, id) index, the total from the per-day counts.
 */
export async function listTransactions(
  ctx: Pick<Ctx, 'db' | 'now'>,
  clientId: string,
  input: ListTransactionsInput,
): Promise<{ data: TransactionListItem[]; total: number }> {
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  const where = rangeFilter(merchant.id, input);
  const limit = input.limit ?? DEFAULT_LIMIT;
  const offset = (input.pageNumber ?? 0) * limit;
  const [rows, total] = await Promise.all([
    ctx.db
      .select(viewColumns)
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(limit)
      .offset(offset),
    countTransactions(ctx.db, merchant.id, input),
  ]);
  const at = merchantNow(ctx.now, merchant);
  return { data: rows.map((r) => toListItem(withSettlement(r, at))), total };
}

export const TRANSACTION_NOT_FOUND = 'Transaction not found: no transaction with this transaction_id belongs to this merchant.';

/** One transaction of the merchant the key names; another merchant's id is "not found" too. */
export async function getTransaction(
  ctx: Pick<Ctx, 'db' | 'now'>,
  clientId: string,
  transactionId: string,
  input: GetTransactionInput,
): Promise<TransactionDetail> {
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  // Postgres text cannot hold NUL; such an id names nothing (and must not reach the driver).
  if (transactionId.includes('\u0000')) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  const [row] = await ctx.db
    .select(viewColumns)
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.merchantId, merchant.id)))
    .limit(1);
  if (!row) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  return toDetail(withSettlement(row, merchantNow(ctx.now, merchant)));
}

/** `settled` as the daily cutoff makes it, even before a void, refund or settle flags the row. */
const withSettlement = (row: ViewRow, at: Date): ViewRow => (row.settled ? row : { ...row, settled: isSettled(row, at) });
