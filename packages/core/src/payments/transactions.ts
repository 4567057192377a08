import { and, eq, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import {
  DEFAULT_LIMIT,
  type ListTransactionsInput,
  type TransactionDetail,
  type TransactionExtras,
  type TransactionListItem,
} from '@remit/contract';
import type { Ctx } from '../context.js';
import { preparedSql } from '../db/prepared-sql.js';
import { transactionCounts, transactionMinuteCounts, transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount, formatRate } from '../money.js';
import { merchantNow } from '../clock.js';
import { lastCutoff, settledByCutoff } from './settlement.js';

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
const ph = sql.placeholder;

/**
 * The list and the single read are named prepared statements (node-postgres sends the name, and
 * each pooled connection parses and plans the statement once); their shapes never vary, so every
 * input is a parameter. PGlite has no statement cache across calls: there the name is unused.
 * They answer the driver's rows, mapped by `viewRow`: Drizzle's per-field row mapping (alias
 * lookups, entity checks) weighed on the list's server CPU (docs/benchmarks.md, "What the profiles found").
 */
const qb = new QueryBuilder();

/** The view's columns of `transactions` aliased `t`, for statements written as SQL text. */
const viewColumnsOf = (alias: string) =>
  sql.raw(
    Object.values(viewColumns)
      .map((c) => `${alias}.${c.name}`)
      .join(', '),
  );

/**
 * The page and the total in one statement, from the per-day counts the database keeps (dates
 * filter whole UTC days, so the days in range hold exactly the rows in range): the total is their
 * sum, not a count over every row. The first page walks the (merchant_id, created_at, id) index
 * backwards from the newest row. A later page (`deep`) starts in the minute where its offset falls:
 * the day from the per-day counts, then the minute from that day's per-minute counts, read newest
 * first and only down to the minute holding the offset (in the index's order: no sort, and a page
 * early in the day reads few minutes); the rows of newer minutes are skipped by bounding created_at
 * below that minute's end, so OFFSET only steps over rows of that one minute (a page deep in a day
 * of 200,000 sales otherwise stepped over most of them), in the index alone, reading only the page's
 * rows from the table. An offset past the last row finds no day and reads no row. A keyset page (`after`) starts below the
 * (created_at, id) of the transaction it names, found in the same statement (`anchored` says
 * whether it was). Its upper end is that one row bound alone, the range's end folded in (`(to, '')`
 * is below every row at `to`): beside a second bound on created_at the index scan started from the
 * other one and stepped over every newer row (PGlite read 1,963 pages for a page deep in a day).
 * Both ends of created_at are always bounded (±infinity when not given): with a range on the index's
 * second column the planner walks it backwards. The total's one row is joined to the page, so an
 * empty page still answers the total.
 */
type PageKind = 'first' | 'deep' | 'after';
const pageStatement = (name: string, kind: PageKind) =>
  preparedSql(name, () => {
    const merchantId = ph('merchantId');
    const offset = sql`${ph('offset')}::bigint`;
    const inRange = (end: SQL) =>
      sql`merchant_id = ${merchantId} and created_at >= ${ph('from')}::timestamptz and created_at < ${end}`;
    const order = sql`order by created_at desc, id desc`;
    const to = sql`${ph('to')}::timestamptz`;
    const dayStart = sql`(select day::timestamp at time zone 'UTC' from start)`;
    const page =
      kind === 'deep'
        ? sql`select ${viewColumnsOf('t')} from (
          select id from ${transactions}
          where ${inRange(sql`least(${to}, coalesce((select minute + interval '1 minute' from mstart), ${dayStart} + interval '1 day'))`)}
            and exists (select 1 from start)
          ${order} limit ${ph('limit')} offset ${offset} - coalesce((select newer from mstart), (select newer from start), 0)
        ) k join ${transactions} t on t.id = k.id`
        : kind === 'after'
          ? sql`select ${viewColumnsOf('t')} from ${transactions} t
          where merchant_id = ${merchantId} and created_at >= ${ph('from')}::timestamptz and (created_at, id) < (a.below_at, a.below_id)
          ${order} limit ${ph('limit')}`
          : sql`select ${viewColumnsOf('t')} from ${transactions} t where ${inRange(to)} ${order} limit ${ph('limit')}`;
    const ctes =
      kind === 'deep'
        ? sql`, start as (
          select day, newer from (
            select day, n, coalesce(sum(n) over (order by day desc rows between unbounded preceding and 1 preceding), 0)::bigint as newer from days
          ) d
          where newer <= ${offset} and newer + n > ${offset} order by day limit 1
        ), minutes as (
          select minute, sum(n)::bigint as n from ${transactionMinuteCounts}
          where merchant_id = ${merchantId} and minute >= ${dayStart} and minute < ${dayStart} + interval '1 day'
          group by minute order by minute desc
        ), mstart as (
          select minute, through - n as newer from (
            select minute, n, (select newer from start) + sum(n) over (order by minute desc rows unbounded preceding) as through from minutes
          ) m
          where through > ${offset} order by minute desc limit 1
        )`
        : kind === 'after'
          ? sql`, anchor as (
          select id, least(created_at, ${to}) as below_at, case when created_at < ${to} then id else '' end as below_id
          from ${transactions} where id = ${ph('after')} and merchant_id = ${merchantId}
        )`
          : sql``;
    const from =
      kind === 'after'
        ? sql`select c.total, a.id is not null as anchored, p.* from (select coalesce(sum(n), 0)::int as total from days) c
      left join anchor a on true
      left join lateral (${page}) p on a.id is not null`
        : sql`select c.total, p.* from (select coalesce(sum(n), 0)::int as total from days) c
      left join lateral (${page}) p on true`;
    return sql`with days as (
        select day, sum(n)::bigint as n from ${transactionCounts}
        where merchant_id = ${merchantId} and day >= ${ph('fromDay')}::date and day <= ${ph('toDay')}::date
        group by day
      )${ctes}
      ${from}
      order by p.created_at desc, p.id desc`;
  });
const firstPageStatement = pageStatement('remit_transactions_page', 'first');
const laterPageStatement = pageStatement('remit_transactions_later_page_m', 'deep');
const keysetPageStatement = pageStatement('remit_transactions_after', 'after');

const oneStatement = preparedSql('remit_transaction_one', () =>
  qb
    .select(viewColumns)
    .from(transactions)
    .where(and(eq(transactions.id, ph('id')), eq(transactions.merchantId, ph('merchantId'))))
    .limit(1)
    .getSQL(),
);

type RawRow = Record<string, unknown>;

/** The driver's rows of a prepared statement (node-postgres and PGlite both answer `{ rows }`). */
const rowsOf = async (answer: Promise<unknown>) => ((await answer) as { rows: RawRow[] }).rows;

/** Timestamps come as Postgres text (Drizzle's session reads them so), bigints as text or bigint. */
const at = (v: unknown) => new Date(v as string);

/** A raw row of `viewColumns` (by column name) as the views' row. */
function viewRow(r: RawRow): ViewRow {
  return {
    id: r.id as string,
    amountCents: Number(r.amount_cents),
    createdAt: at(r.created_at),
    feeRateE7: r.fee_rate_e7 as number,
    netCents: Number(r.net_cents),
    authCode: r.auth_code as string,
    cardBrand: r.card_brand as string,
    lastFour: r.last_four as string,
    status: r.status as string,
    isStatus: r.is_status as number,
    type: r.type as string,
    paymentMethod: r.payment_method as string,
    settled: r.settled as boolean,
    completedAt: r.completed_at == null ? null : at(r.completed_at),
    orderId: (r.order_id as string | null) ?? null,
  };
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
  const limit = input.limit ?? DEFAULT_LIMIT;
  const offset = (input.pageNumber ?? 0) * limit;
  const after = input.starting_after;
  // Postgres text cannot hold NUL; such an id names nothing (and must not reach the driver).
  if (after !== undefined && after.includes('\u0000')) throw unknownStartingAfter();
  const statement = after !== undefined ? keysetPageStatement : offset === 0 ? firstPageStatement : laterPageStatement;
  const rows = await rowsOf(
    statement.run(ctx.db, {
      merchantId: merchant.id,
      from: input.from_date ? `${input.from_date}T00:00:00.000Z` : '-infinity',
      // Inclusive end day: everything before the next midnight UTC.
      to: input.to_date ? new Date(Date.parse(`${input.to_date}T00:00:00.000Z`) + DAY_MS).toISOString() : 'infinity',
      fromDay: input.from_date ?? '-infinity',
      toDay: input.to_date ?? 'infinity',
      limit,
      offset,
      after,
    }),
  );
  if (after !== undefined && !rows[0]?.anchored) throw unknownStartingAfter();
  const cutoff = lastCutoff(merchantNow(ctx.now, merchant), ctx.settlementCutoffMs);
  // The left join's empty page: one row with the total and no transaction.
  const page = rows.flatMap((r) => (r.id == null ? [] : [toListItem(withSettlement(viewRow(r), cutoff))]));
  return { data: page, total: Number(rows[0]?.total ?? 0) };
}

/** `starting_after` naming no transaction of this merchant (unknown, or another merchant's): the request is wrong. */
const unknownStartingAfter = () =>
  invalid('invalid_request', 'starting_after: no transaction with this transaction_id belongs to this merchant.', [
    { path: 'starting_after', message: 'must be a transaction_id of this merchant' },
  ]);

export const TRANSACTION_NOT_FOUND =
  'Transaction not found: no transaction with this transaction_id belongs to this merchant.';

/** One transaction of the merchant the key names; another merchant's id is "not found" too. */
export async function getTransaction(
  ctx: Pick<Ctx, 'db' | 'now' | 'settlementCutoffMs'>,
  merchant: Merchant,
  transactionId: string,
): Promise<TransactionDetail> {
  // Postgres text cannot hold NUL; such an id names nothing (and must not reach the driver).
  if (transactionId.includes('\u0000')) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  const [row] = await rowsOf(oneStatement.run(ctx.db, { id: transactionId, merchantId: merchant.id }));
  if (!row) throw notFound('transaction_not_found', TRANSACTION_NOT_FOUND);
  return toDetail(withSettlement(viewRow(row), lastCutoff(merchantNow(ctx.now, merchant), ctx.settlementCutoffMs)));
}

/** `settled` as the daily cutoff makes it, even before a void, refund or settle flags the row. */
const withSettlement = (row: ViewRow, cutoff: Date): ViewRow =>
  row.settled ? row : { ...row, settled: settledByCutoff(row, cutoff) };
