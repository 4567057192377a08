import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { transactions } from '../db/schema.js';
import { notFound } from '../errors.js';
import { dateText, merchantKey } from '../fields.js';
import { merchantForKey } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount, formatRate } from '../money.js';

/** Transaction queries: `GET /merchant/transactions` and `GET /merchant/transactions/{id}`. */

export type TransactionRow = typeof transactions.$inferSelect;

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deep enough for any real listing; keeps OFFSET arithmetic far from overflow. */
export const MAX_PAGE_NUMBER = 1_000_000;

const LIMIT_RULE = `must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`;
const PAGE_RULE = `must be a whole number from 0 (the first page) to ${MAX_PAGE_NUMBER}`;

/** A whole number given as a JSON number or as text (query strings carry only text). */
const wholeNumber = (min: number, max: number, rule: string) =>
  z.union([z.number(), z.string().max(20)]).transform((v, ctx) => {
    const s = typeof v === 'number' ? v : v.trim();
    const n = typeof s === 'number' ? s : /^[+-]?\d+$/.test(s) ? Number(s) : Number.NaN;
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
    merchant_key: merchantKey(),
    from_date: optional(dateText()),
    to_date: optional(dateText()),
    limit: optional(wholeNumber(1, MAX_LIMIT, LIMIT_RULE)),
    pageNumber: optional(wholeNumber(0, MAX_PAGE_NUMBER, PAGE_RULE)),
  })
  .superRefine((v, ctx) => {
    if (v.from_date && v.to_date && v.from_date > v.to_date) {
      ctx.addIssue({ code: 'custom', path: ['from_date'], message: 'must be on or before to_date' });
    }
  });
export type ListTransactionsInput = z.output<typeof listTransactionsInput>;

export const getTransactionInput = z.object({ merchant_key: merchantKey() });
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

const extras = (t: TransactionRow): TransactionExtras => ({
  status: t.status,
  is_status: t.isStatus,
  type: t.type,
  payment_method: t.paymentMethod,
  settled: t.settled,
  order_id: t.orderId ?? '',
});

/** A row as a list item; `net_amount` keeps the stored sign (refunds and voids are negative). */
export function toListItem(t: TransactionRow): TransactionListItem {
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
export function toDetail(t: TransactionRow): TransactionDetail {
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

function rangeFilter(merchantId: string, input: ListTransactionsInput): SQL {
  const parts: SQL[] = [eq(transactions.merchantId, merchantId)];
  if (input.from_date) parts.push(gte(transactions.createdAt, new Date(`${input.from_date}T00:00:00.000Z`)));
  // Inclusive end day: everything before the next midnight UTC.
  if (input.to_date) parts.push(lt(transactions.createdAt, new Date(Date.parse(`${input.to_date}T00:00:00.000Z`) + DAY_MS)));
  return and(...parts)!;
}

/**
 * One page of a merchant's transactions, newest first (ties by id), and the count of all that
 * match. Two statements, both served by the (merchant_id, created_at, id) index.
 */
export async function listTransactions(
  ctx: Pick<Ctx, 'db'>,
  clientId: string,
  input: ListTransactionsInput,
): Promise<{ data: TransactionListItem[]; total: number }> {
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  const where = rangeFilter(merchant.id, input);
  const limit = input.limit ?? DEFAULT_LIMIT;
  const offset = (input.pageNumber ?? 0) * limit;
  const [rows, counted] = await Promise.all([
    ctx.db
      .select()
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(transactions).where(where),
  ]);
  return { data: rows.map(toListItem), total: Number(counted[0]?.n ?? 0) };
}

export const TRANSACTION_NOT_FOUND = 'Transaction not found: no transaction with this transaction_id belongs to this merchant.';

/** One transaction of the merchant the key names; another merchant's id is "not found" too. */
export async function getTransaction(
  ctx: Pick<Ctx, 'db'>,
  clientId: string,
  transactionId: string,
  input: GetTransactionInput,
): Promise<TransactionDetail> {
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  const [row] = await ctx.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, transactionId), eq(transactions.merchantId, merchant.id)))
    .limit(1);
  if (!row) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  return toDetail(row);
}
