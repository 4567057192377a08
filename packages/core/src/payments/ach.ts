import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { paymentMethods, transactions } from '../db/schema.js';
import { revealAccountNumber } from '../customers/vault.js';
import { invalid, notFound } from '../errors.js';
import { recordEvent } from '../events/outbox.js';
import { merchantKey } from '../fields.js';
import { merchantForKey } from '../merchants/merchant-key.js';
import { paymentSuccessData } from './charges.js';
import { insertRecord, lockTransaction, type TxnRow } from './records.js';
import { sandboxOnly } from './settlement.js';
import { nextState, stateColumns, stateOf } from './state.js';
import { transactionId } from './voids.js';

/**
 * Sandbox `POST /update-ach`: resolves a pending ACH transaction as the bank would. `approved`
 * completes and settles it, unless the simulated bank returns it (an account number ending 0000
 * is returned R01 Insufficient Funds, DESIGN.md); `declined` returns it: the original becomes
 * `returned` and a reversal record (type `Return`) takes its net back.
 */

export const updateAchInput = z.object({
  merchant_key: merchantKey(),
  transaction_id: transactionId(),
  new_status: z.enum(['approved', 'declined'], { error: 'must be approved or declined' }),
});
export type UpdateAchInput = z.output<typeof updateAchInput>;

export const ACH_NOT_FOUND_MESSAGE =
  'ACH transaction not found: no ACH transaction with this transaction_id belongs to this merchant.';

const DEFAULT_RETURN_MESSAGE = 'Insufficient Funds';

/** What the simulated bank answers for an approval: a stored account may be returned. */
async function bankOutcome(ctx: Ctx, tx: Queryable, row: TxnRow): Promise<{ approved: true } | { approved: false; message: string }> {
  const [method] = row.paymentMethodId
    ? await tx.select().from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId))
    : [];
  if (method && method.type !== 'bank_account') return { approved: true };
  // A pay-page debit stores no account: the sandbox bank decides by the last digits it recorded.
  const outcome = ctx.processor.achOutcome(method ? revealAccountNumber(ctx, method) : row.lastFour);
  return outcome.approved ? outcome : { approved: false, message: outcome.message };
}

export async function updateAch(ctx: Ctx, clientId: string, input: UpdateAchInput): Promise<{ message: string }> {
  if (ctx.env !== 'sandbox') throw sandboxOnly('POST /update-ach');
  const merchant = await merchantForKey(ctx.db, clientId, input.merchant_key);
  return ctx.db.transaction(async (tx) => {
    const row = await lockTransaction(tx, merchant.id, input.transaction_id);
    if (!row) throw notFound('ach_transaction_not_found', ACH_NOT_FOUND_MESSAGE);
    if (row.paymentMethod !== 'ach' || row.type !== 'Sale') {
      throw invalid('not_ach', `transaction_id must name an ACH payment; ${row.id} is a ${row.paymentMethod} ${row.type} transaction.`);
    }
    const state = stateOf(row.isStatus);
    if (state !== 'pending') {
      throw invalid('ach_already_resolved', `The ACH transaction is already ${state}; its status can no longer change.`);
    }
    const at = merchantNow(ctx.now, merchant);
    const outcome = input.new_status === 'approved' ? await bankOutcome(ctx, tx, row) : { approved: false as const, message: DEFAULT_RETURN_MESSAGE };

    if (outcome.approved) {
      const next = nextState(state, 'ach_approve')!;
      const [done] = await tx
        .update(transactions)
        .set({ ...stateColumns(next), settled: true, settledAt: at, completedAt: at, updatedAt: at })
        .where(eq(transactions.id, row.id))
        .returning();
      const base = { clientId: merchant.clientId, merchantId: merchant.id };
      await recordEvent(tx, {
        ...base,
        type: 'ach.update',
        data: { merchant_id: merchant.id, status: 'Approved', tran_id: row.id, message: 'Approved' },
      });
      await recordEvent(tx, { ...base, type: 'payment.success', data: paymentSuccessData(done!) });
      return { message: 'ACH transaction approved.' };
    }

    const next = nextState(state, 'ach_decline')!;
    const reversal = await insertRecord(tx, row, { type: 'Return', amountCents: row.amountCents, netCents: -row.netCents, at });
    await tx
      .update(transactions)
      .set({ ...stateColumns(next), declineReason: outcome.message, updatedAt: at })
      .where(eq(transactions.id, row.id));
    await recordEvent(tx, {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: 'ach.update',
      data: {
        merchant_id: merchant.id,
        status: 'Declined',
        tran_id: row.id,
        message: 'Insufficient Funds',
        return_transaction_id: reversal.id,
      },
    });
    return { message: `ACH transaction declined: ${outcome.message}.` };
  });
}
