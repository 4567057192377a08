import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { MoneyRecord } from '@remit/contract';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { newId } from '../ids.js';
import { amountNumber } from '../money.js';
import { stateColumns } from './state.js';

/**
 * Records that move money back (Void, Refund, Return) are transactions of their own, linked to
 * the original by `linked_txn_id`, with a negative `net_amount` as the spec's list shows.
 */

export type TxnRow = typeof transactions.$inferSelect;

/** The original row, locked until the operation's transaction ends; null when the merchant has none with this id. */
export async function lockTransaction(tx: Queryable, merchantId: string, id: string): Promise<TxnRow | null> {
  const [row] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.merchantId, merchantId)))
    .for('update');
  return row ?? null;
}

export type RecordType = 'Void' | 'Refund' | 'Return';

/** What a record's answer and events show of it (`toMoneyRecord`). */
export type RecordShown = Pick<
  TxnRow,
  'id' | 'orderCreatedfrom' | 'amountCents' | 'gatewayRef' | 'createdAt' | 'linkedTxnId' | 'type'
>;

export interface NewRecord {
  type: RecordType;
  /** What it moves back (positive); an expression over the original `o` where only the statement knows it. */
  amountCents: number | SQL;
  /** Its effect on the merchant's balance (zero or negative). */
  netCents: number | SQL;
  at: Date;
}

/**
 * The insert of a record against the original row, read as `o` from `source` in the same
 * statement (a CTE of it, or the row the caller holds locked), so a caller can fold it into one
 * statement with the original's update. The fee column holds the part of the original fee it
 * gives back, so amount, fee and net stay consistent. Returns `order_createdfrom` and `amount_cents`.
 */
export function recordInsert(source: SQL, r: NewRecord): { id: string; gatewayRef: string; query: SQL } {
  const id = newId.transaction();
  const gatewayRef = newId.gatewayRef();
  return { id, gatewayRef, query: recordInsertSql(source, r, { id, gatewayRef, at: stamp(r.at) }) };
}

/**
 * `recordInsert`'s statement with its per-call values given: plain values, or `sql.placeholder`s
 * of a statement prepared once (the SQL text is the same either way).
 */
export function recordInsertSql(
  source: SQL,
  r: Pick<NewRecord, 'type'> & { amountCents: unknown; netCents: unknown },
  v: { id: unknown; gatewayRef: unknown; at: SQL },
): SQL {
  const { id, gatewayRef, at } = v;
  const completed = stateColumns('completed');
  // Parameters in a select list are text unless cast.
  const amount = sql`(${r.amountCents})::bigint`;
  const net = sql`(${r.netCents})::bigint`;
  return sql`insert into transactions (id, merchant_id, type, payment_method, is_status, status, amount_cents,
      fee_cents, fee_rate_e7, net_cents, settled, settled_at, completed_at, linked_txn_id, pay_link_id, customer_id,
      payment_method_id, order_id, invoice_number, order_createdfrom, gateway_ref, auth_code, card_brand, last_four,
      created_at, updated_at)
    select ${id}::text, o.merchant_id, ${r.type}::text, o.payment_method, ${completed.isStatus}::smallint, ${completed.status}::text, ${amount},
      -${amount} - ${net}, o.fee_rate_e7, ${net}, o.payment_method = 'ach',
      case when o.payment_method = 'ach' then ${at} end, ${at}, o.id, o.pay_link_id, o.customer_id,
      o.payment_method_id, o.order_id, o.invoice_number, o.order_createdfrom, ${gatewayRef}::text, o.auth_code, o.card_brand, o.last_four,
      ${at}, ${at}
    from ${source} o
    returning order_createdfrom, amount_cents::int as amount_cents`;
}

/** The original row named by id, as a `recordInsert` source (the caller holds its lock). */
export const originalRow = (id: string) => sql`(select * from transactions where id = ${id})`;

/** The record as `toMoneyRecord` reads it, from what `recordInsert` made and returned. */
export function recordShown(
  made: { id: string; gatewayRef: string },
  returned: { order_createdfrom: string; amount_cents: number | string },
  r: { type: RecordType; at: Date; originalId: string },
): RecordShown {
  return {
    id: made.id,
    gatewayRef: made.gatewayRef,
    orderCreatedfrom: returned.order_createdfrom,
    amountCents: Number(returned.amount_cents),
    createdAt: r.at,
    linkedTxnId: r.originalId,
    type: r.type,
  };
}

/** Inserts a record against `original` (locked by the caller); returns what its answer shows. */
export async function insertRecord(
  tx: Queryable,
  original: TxnRow,
  r: NewRecord & { amountCents: number; netCents: number },
): Promise<RecordShown> {
  const made = recordInsert(originalRow(original.id), r);
  await tx.execute(made.query);
  return recordShown(
    made,
    { order_createdfrom: original.orderCreatedfrom, amount_cents: r.amountCents },
    { ...r, originalId: original.id },
  );
}

/** A time as a statement parameter. */
export const stamp = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Rows of a raw statement, whichever driver ran it. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** `data` of void and refund responses ("Void / refund record"). */
export type { MoneyRecord };

/** The record as the HTTP response shows it: `linked_txn_id` is the original transaction. */
export function toMoneyRecord(record: RecordShown): MoneyRecord {
  return {
    sales_id: record.id,
    transaction_id: record.id,
    order_createdfrom: record.orderCreatedfrom,
    amount: amountNumber(record.amountCents),
    txn_id: record.gatewayRef ?? '',
    txn_date: record.createdAt.toISOString(),
    linked_txn_id: record.linkedTxnId ?? '',
    Status: 'Success',
    type: record.type as 'Void' | 'Refund',
  };
}
