import { and, eq } from 'drizzle-orm';
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

/**
 * Inserts a record against `original`. `amountCents` is what it moves back (positive);
 * `netCents` its effect on the merchant's balance (zero or negative); the fee column holds
 * the part of the original fee it gives back, so amount, fee and net stay consistent.
 */
export async function insertRecord(
  tx: Queryable,
  original: TxnRow,
  r: { type: RecordType; amountCents: number; netCents: number; at: Date },
): Promise<TxnRow> {
  const [row] = await tx.insert(transactions).values(recordValues(original, r)).returning();
  return row!;
}

/** The row `insertRecord` writes, for a caller that folds the insert into a larger statement. */
export function recordValues(
  original: TxnRow,
  r: { type: RecordType; amountCents: number; netCents: number; at: Date },
) {
  return {
    id: newId.transaction(),
    merchantId: original.merchantId,
    type: r.type,
    paymentMethod: original.paymentMethod,
    ...stateColumns('completed'),
    amountCents: r.amountCents,
    feeCents: -r.amountCents - r.netCents,
    feeRateE7: original.feeRateE7,
    netCents: r.netCents,
    settled: original.paymentMethod === 'ach',
    settledAt: original.paymentMethod === 'ach' ? r.at : null,
    completedAt: r.at,
    linkedTxnId: original.id,
    payLinkId: original.payLinkId,
    customerId: original.customerId,
    paymentMethodId: original.paymentMethodId,
    orderId: original.orderId,
    invoiceNumber: original.invoiceNumber,
    orderCreatedfrom: original.orderCreatedfrom,
    gatewayRef: newId.gatewayRef(),
    authCode: original.authCode,
    cardBrand: original.cardBrand,
    lastFour: original.lastFour,
    createdAt: r.at,
    updatedAt: r.at,
  } satisfies typeof transactions.$inferInsert;
}

/** `data` of void and refund responses ("Void / refund record"). */
export type { MoneyRecord };

/** The record as the HTTP response shows it: `linked_txn_id` is the original transaction. */
export function toMoneyRecord(
  record: Pick<TxnRow, 'id' | 'orderCreatedfrom' | 'amountCents' | 'gatewayRef' | 'createdAt' | 'linkedTxnId' | 'type'>,
): MoneyRecord {
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
