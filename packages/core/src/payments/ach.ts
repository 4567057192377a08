import { eq } from 'drizzle-orm';
import type { UpdateAchInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { paymentMethods, transactions } from '../db/schema.js';
import { revealAccountNumber } from '../customers/vault.js';
import { invalid, notFound } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { paymentSuccessData } from './payloads.js';
import { ACH_RETURNED, recordPaymentFailed } from './failed-event.js';
import { insertRecord, lockTransaction, type TxnRow } from './records.js';
import { sandboxOnly } from './settlement.js';
import { sandboxAchOutcome } from '../processor/sandbox-bank.js';
import { allowsStatus, nextState, stateColumns, stateOf } from './state.js';
import { inTransaction } from '../operation.js';
import type { Writer } from '../operation.js';

/**
 * Sandbox `POST /update-ach`: resolves a pending ACH transaction as the bank would. `approved`
 * completes and settles it, unless the simulated bank returns it (an account number ending 0000
 * is returned R01 Insufficient Funds, docs/concepts.md); `declined` returns it: the original becomes
 * `returned` and a reversal record (type `Return`) takes its net back.
 */

export const ACH_NOT_FOUND_MESSAGE =
  'ACH transaction not found: no ACH transaction with this transaction_id belongs to this merchant.';

const DEFAULT_RETURN_MESSAGE = 'Insufficient Funds';

/** What the simulated bank answers for an approval: a stored account may be returned. */
async function bankOutcome(
  ctx: Ctx,
  tx: Queryable,
  row: TxnRow,
): Promise<{ approved: true } | { approved: false; message: string }> {
  const [method] = row.paymentMethodId
    ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId))
    : [];
  if (method && method.type !== 'bank_account') return { approved: true };
  // A pay-page debit stores no account: the sandbox bank decides by the last digits it recorded.
  const outcome = sandboxAchOutcome(method ? revealAccountNumber(ctx, method) : row.lastFour);
  return outcome.approved ? outcome : { approved: false, message: outcome.message };
}

export async function updateAch(ctx: Ctx, merchant: Merchant, input: UpdateAchInput): Promise<{ message: string }> {
  if (ctx.env !== 'sandbox') throw sandboxOnly('POST /update-ach');
  return inTransaction(ctx, async (tx, ctx) => {
    const row = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!row) throw notFound('ach_transaction_not_found', ACH_NOT_FOUND_MESSAGE);
    if (row.paymentMethod !== 'ach' || row.type !== 'Sale') {
      throw invalid(
        'not_ach',
        `transaction_id must name an ACH payment; ${row.id} is a ${row.paymentMethod} ${row.type} transaction.`,
      );
    }
    if (!allowsStatus(row.isStatus, 'ach_approve')) {
      throw invalid(
        'ach_already_resolved',
        `The ACH transaction is already ${stateOf(row.isStatus)}; its status can no longer change.`,
      );
    }
    const at = merchantNow(ctx.now, merchant);
    const outcome =
      input.new_status === 'approved'
        ? await bankOutcome(ctx, tx, row)
        : { approved: false as const, message: DEFAULT_RETURN_MESSAGE };
    await resolveAch({ ...ctx, db: tx }, merchant, row, outcome, at);
    return {
      message: outcome.approved ? 'ACH transaction approved.' : `ACH transaction declined: ${outcome.message}.`,
    };
  });
}

/**
 * The bank's answer on a pending ACH debit (locked by the caller), from the sandbox bank or from
 * Stripe's events: approved completes and settles it (`ach.update` Approved, `payment.success`);
 * returned makes it `returned` with a reversal record (type `Return`) taking its net back
 * (`ach.update` Declined with `return_transaction_id`, and `payment.failed`).
 */
export async function resolveAch(
  w: Writer,
  merchant: { id: string; clientId: string },
  row: TxnRow,
  outcome: { approved: true } | { approved: false; message: string },
  at: Date,
): Promise<void> {
  const tx = w.db;
  const state = stateOf(row.isStatus);
  const base = { clientId: merchant.clientId, merchantId: merchant.id };
  if (outcome.approved) {
    const next = nextState(state, 'ach_approve')!;
    const [done] = await tx
      .update(transactions)
      .set({ ...stateColumns(next), settled: true, settledAt: at, completedAt: at, updatedAt: at })
      .where(eq(transactions.id, row.id))
      .returning();
    await recordEvent(w, {
      ...base,
      type: 'ach.update',
      data: { merchant_id: merchant.id, status: 'Approved', tran_id: row.id, message: 'Approved' },
    });
    await recordEvent(w, { ...base, type: 'payment.success', data: paymentSuccessData(done!) });
    return;
  }
  // Pending: the bank declined it; completed: returned after it succeeded (a Stripe return).
  const next = (nextState(state, 'ach_decline') ?? nextState(state, 'ach_return'))!;
  const reversal = await insertRecord(tx, row, {
    type: 'Return',
    amountCents: row.amountCents,
    netCents: -row.netCents,
    at,
  });
  await tx
    .update(transactions)
    .set({ ...stateColumns(next), declineReason: outcome.message, updatedAt: at })
    .where(eq(transactions.id, row.id));
  await recordEvent(w, {
    ...base,
    type: 'ach.update',
    data: {
      merchant_id: merchant.id,
      status: 'Declined',
      tran_id: row.id,
      // The spec's event names this one return reason; the transaction keeps the bank's own.
      message: 'Insufficient Funds',
      return_transaction_id: reversal.id,
    },
  });
  await recordPaymentFailed(w, {
    ...base,
    transactionId: row.id,
    orderId: row.orderId,
    amountCents: row.amountCents,
    code: ACH_RETURNED,
    message: outcome.message,
    method: 'ach',
  });
}
