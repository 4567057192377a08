import { eq } from 'drizzle-orm';
import { errorMessage, type PreauthCaptureResult, type PreauthIdInput, type PreauthUpdateResult, type UpdatePreauthInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { recordEvent, writeWithEvent } from '../events/outbox.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount } from '../money.js';
import { feeFor } from './fees.js';
import { lockTransaction, toMoneyRecord, type MoneyRecord, type TxnRow } from './records.js';
import { nextState, stateColumns, stateOf, type PaymentEvent } from './state.js';
import { performVoid } from './voids.js';

/** Preauthorizations: `POST /preauth/update`, `/preauth/capture`, `/preauth/void`. */

export const AMOUNT_MISMATCH_MESSAGE = errorMessage('amount_mismatch');
export const PREAUTH_NOT_FOUND_MESSAGE =
  'Preauthorization not found: no preauthorization with this transaction_id belongs to this merchant.';


const VERB: Record<'preauth_update' | 'preauth_capture' | 'preauth_void', string> = {
  preauth_update: 'updated',
  preauth_capture: 'captured',
  preauth_void: 'voided',
};

/**
 * The original preauthorization, locked, in a state that allows `event`. Void, refund and
 * capture records are refused by type: only the original preauthorization ID is accepted.
 */
async function lockPreauth(
  tx: Queryable,
  merchantId: string,
  id: string,
  event: 'preauth_update' | 'preauth_capture' | 'preauth_void',
): Promise<TxnRow> {
  const row = await lockTransaction(tx, merchantId, id);
  if (!row) throw notFound('preauth_not_found', PREAUTH_NOT_FOUND_MESSAGE);
  if (row.type !== 'PreAuth') {
    throw invalid(
      'not_original_preauth',
      `transaction_id must be the original preauthorization ID; ${row.id} is a ${row.type} transaction, not a preauthorization.`,
    );
  }
  const state = stateOf(row.isStatus);
  if (nextState(state, event) !== null) return row;
  const why =
    state === 'voided'
      ? 'has been voided'
      : state === 'completed' || state === 'refunded'
        ? 'has already been captured'
        : `is ${state}`;
  const code = state === 'voided' ? 'preauth_voided' : state === 'completed' || state === 'refunded' ? 'preauth_captured' : 'preauth_not_open';
  throw invalid(code, `The preauthorization ${why}; it can no longer be ${VERB[event]}.`);
}

export async function updatePreauth(ctx: Ctx, merchant: Merchant, input: UpdatePreauthInput): Promise<PreauthUpdateResult> {
  if (input.new_authorized_amount === input.last_authorized_amount) {
    throw invalid('amount_unchanged', 'new_authorized_amount equals last_authorized_amount; there is nothing to change.');
  }
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_update');
    // Compare-and-set: the row is locked, so the amount read here is the one this update replaces.
    if ((row.authorizedCents ?? row.amountCents) !== input.last_authorized_amount) {
      throw invalid('amount_mismatch', AMOUNT_MISMATCH_MESSAGE);
    }
    const at = merchantNow(ctx.now, merchant);
    const cents = input.new_authorized_amount;
    // The hold shows the fee of its current amount, as at creation; capture prices it again.
    const fee = feeFor(merchant, 'card', cents);
    const update = tx
      .update(transactions)
      .set({
        authorizedCents: cents,
        amountCents: cents,
        feeCents: fee.feeCents,
        feeRateE7: fee.rateE7,
        netCents: fee.netCents,
        ...stateColumns(nextState('authorized', 'preauth_update')!),
        updatedAt: at,
      })
      .where(eq(transactions.id, row.id));
    const orderId = row.orderId ?? input.order_id;
    // The update and its event in one statement (the row stays locked by the select above).
    await writeWithEvent(tx, [update], {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: cents > input.last_authorized_amount ? 'preauth.increment' : 'preauth.decrement',
      data: {
        merchant_id: merchant.id,
        transaction_id: row.id,
        order_id: orderId,
        last_authorized_amount: amountNumber(input.last_authorized_amount),
        authorized_amount: amountNumber(cents),
      },
    });
    return {
      Status: 'Approved',
      Account: row.lastFour,
      Brand: row.cardBrand,
      AuthCode: row.authCode,
      Authorized: formatAmount(cents),
      transaction_id: row.id,
      orderid: orderId,
    };
  });
}

export async function capturePreauth(ctx: Ctx, merchant: Merchant, input: PreauthIdInput): Promise<PreauthCaptureResult> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_capture');
    const at = merchantNow(ctx.now, merchant);
    const cents = row.authorizedCents ?? row.amountCents;
    const fee = feeFor(merchant, row.paymentMethod === 'ach' ? 'ach' : 'card', cents);
    await tx
      .update(transactions)
      .set({
        ...stateColumns(nextState('authorized', 'preauth_capture')!),
        amountCents: cents,
        feeCents: fee.feeCents,
        feeRateE7: fee.rateE7,
        netCents: fee.netCents,
        completedAt: at,
        updatedAt: at,
      })
      .where(eq(transactions.id, row.id));
    const orderId = row.orderId ?? '';
    const money = { amount: amountNumber(cents), net_amount: amountNumber(fee.netCents), fee_amount: amountNumber(fee.feeCents) };
    await recordEvent(tx, {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: 'preauth.charge',
      data: { merchant_id: merchant.id, transaction_id: row.id, order_id: orderId, ...money },
    });
    await recordEvent(tx, {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: 'payment.success',
      data: {
        transaction_id: row.id,
        merchant_id: merchant.id,
        ...money,
        order_id: orderId,
        last_four: row.lastFour,
        brand: row.cardBrand,
        link_id: row.payLinkId ?? '',
      },
    });
    return {
      Status: 'Approved',
      Account: row.lastFour,
      Brand: row.cardBrand,
      AuthCode: row.authCode,
      amount: formatAmount(cents),
      Authorized: amountNumber(cents),
      orderid: orderId,
      transaction_id: row.id,
      net_amount: money.net_amount,
    };
  });
}

/** `POST /preauth/void`: releases the hold; a void record for the authorized amount, `preauth.void`. */
export async function voidPreauth(ctx: Ctx, merchant: Merchant, input: PreauthIdInput): Promise<MoneyRecord> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_void');
    const at = merchantNow(ctx.now, merchant);
    const event: PaymentEvent = 'preauth_void';
    const record = await performVoid(tx, merchant, row, at, { event, eventType: 'preauth.void' });
    return toMoneyRecord(record);
  });
}
