import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactionCounts, transactions } from '../db/schema.js';
import { notFound } from '../errors.js';
import { dateText, merchantKey } from '../fields.js';
import type { Merchant } from '../merchants/merchant-key.js';
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

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deep enough for any real listing; keeps OFFSET arithmetic far from overflow. */
export const MAX_PAGE_NUMBER = 1_000_000;

const LIMIT_RULE = `must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`;
const PAGE_RULE = `must be a whole number from 0 (the first page) to ${MAX_PAGE_NUMBER}`;

/** A whole number given as a JSON number or as text (query strings carry only text). */
const wholeNumber = (min: number, max: number, rule: string) =>
  z.union([z.number(), z.string().max(20)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^[+-]?\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    }
    return n;
  });

/** Absent, null and "" all mean "not given" (a query string writes an empty value as ""). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional());

/**
 * Parameters of the list, read from the JSON body or the query string. Dates are inclusive
 * calendar days in UTC; `pageNumber` is zero-based.
 */
export const listTransactionsInput = z
  .object({
    merchant_key: merchantKey().describe("The merchant's secret key"),
    from_date: optional(dateText()).describe('YYYY-MM-DD: first day included (UTC)'),
    to_date: optional(dateText()).describe('YYYY-MM-DD: last day included (UTC); not before from_date'),
    limit: optional(wholeNumber(1, MAX_LIMIT, LIMIT_RULE)).describe(`Page size, 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}; number or text`),
    pageNumber: optional(wholeNumber(0, MAX_PAGE_NUMBER, PAGE_RULE)).describe('Zero-based page; number or text'),
  })
  .superRefine((v, ctx) => {
    if (v.from_date && v.to_date && v.from_date > v.to_date) {
      ctx.addIssue({ code: 'custom', path: ['from_date'], message: 'must be on or before to_date' });
    }
  });
export type ListTransactionsInput = z.output<typeof listTransactionsInput>;

export const getTransactionInput = z.object({ merchant_key: merchantKey().describe("The merchant's secret key") });
export type GetTransactionInput = z.output<typeof getTransactionInput>;

/** The fields beyond the spec's that DESIGN.md adds to both shapes. */
export interface TransactionExtras {
  status: string;
  /** 0 pending, 1 authorized, 2 completed, 3 declined, 4 voided, 5 fully refunded, 6 returned. */
  is_status: number;
  type: string;
  payment_method: string;
  settled: boolean;
  /** '' when the transaction has none. */
  order_id: string;
}

export interface TransactionListItem extends TransactionExtras {
  transaction_id: string;
  amount: string;
  created_date: string;
  fee_percentage: string;
  net_amount: number;
  other_details: { auth_code: string; card_brand: string; last_four: string };
}

export interface TransactionDetail extends TransactionExtras {
  transaction_id: string;
  amount: string;
  transaction_date: string;
  fee_percentage: string;
  net_amount: number;
  other_details: { authcode: string; cardType: string; lastFourDigits: string };
}

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
  ctx: Pick<Ctx, 'db' | 'now' | 'settlementCutoffMs'>,
  merchant: Merchant,
  input: ListTransactionsInput,
): Promise<{ data: TransactionListItem[]; total: number }> {
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
  return { data: rows.map((r) => toListItem(withSettlement(r, at, ctx.settlementCutoffMs))), total };
}

export const TRANSACTION_NOT_FOUND = 'Transaction not found: no transaction with this transaction_id belongs to this merchant.';

/** One transaction of the merchant the key names; another merchant's id is "not found" too. */
export async function getTransaction(
  ctx: Pick<Ctx, 'db' | 'now' | 'settlementCutoffMs'>,
  merchant: Merchant,
  transactionId: string,
): Promise<TransactionDetail> {
  // Postgres text cannot hold NUL; such an id names nothing (and must not reach the driver).
  if (transactionId.includes('\u0000')) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  const [row] = await ctx.db
    .select(viewColumns)
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.merchantId, merchant.id)))
    .limit(1);
  if (!row) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  return toDetail(withSettlement(row, merchantNow(ctx.now, merchant), ctx.settlementCutoffMs));
}

/** `settled` as the daily cutoff makes it, even before a void, refund or settle flags the row. */
const withSettlement = (row: ViewRow, at: Date, cutoffMs: number): ViewRow =>
  row.settled ? row : { ...row, settled: isSettled(row, at, cutoffMs) };
