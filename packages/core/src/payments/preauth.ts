import { and, eq, sql } from 'drizzle-orm';
import { errorMessage, type EventData, type PreauthCaptureResult, type PreauthIdInput, type PreauthUpdateResult, type UpdatePreauthInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { eventInsertSql, recordEvent } from '../events/outbox.js';
import { preparedSql, type PreparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { outboxWritten } from '../outbox-signal.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount } from '../money.js';
import { feeFor } from './fees.js';
import { lockTransaction, rowsOf, toMoneyRecord, type MoneyRecord, type TxnRow } from './records.js';
import { IS_STATUS, nextState, stateColumns, stateOf, type PaymentEvent } from './state.js';
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

/**
 * `POST /preauth/update` when the preauthorization is open and holds `last_authorized_amount`
 * (the usual case): one statement, its UPDATE the compare-and-set (it takes the row lock and
 * rechecks the guard against the latest row), writes the new amount and the event. Otherwise, in
 * one transaction under the row lock, the refusal that applies, or the update after all.
 */
export async function updatePreauth(ctx: Ctx, merchant: Merchant, input: UpdatePreauthInput): Promise<PreauthUpdateResult> {
  if (input.new_authorized_amount === input.last_authorized_amount) {
    throw invalid('amount_unchanged', 'new_authorized_amount equals last_authorized_amount; there is nothing to change.');
  }
  const done = await writePreauthUpdate(ctx.db, ctx, merchant, input);
  if (done) return done;
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_update');
    // Compare-and-set: the row is locked, so the amount read here is the one this update replaces.
    if ((row.authorizedCents ?? row.amountCents) !== input.last_authorized_amount) {
      throw invalid('amount_mismatch', AMOUNT_MISMATCH_MESSAGE);
    }
    const updated = await writePreauthUpdate(tx, ctx, merchant, input);
    if (!updated) throw new Error(`preauth update of ${row.id} refused by its guard although the locked row allows it`);
    return updated;
  });
}

/** The update of an open preauthorization holding `last_authorized_amount`, and its event; null when the guard refused. */
async function writePreauthUpdate(
  q: Queryable,
  ctx: Pick<Ctx, 'now'>,
  merchant: Merchant,
  input: UpdatePreauthInput,
): Promise<PreauthUpdateResult | null> {
  const at = merchantNow(ctx.now, merchant);
  const cents = input.new_authorized_amount;
  // The hold shows the fee of its current amount, as at creation; capture prices it again.
  const fee = feeFor(merchant, 'card', cents);
  const [row] = rowsOf<{ last_four: string; card_brand: string; auth_code: string; order_id: string }>(
    await preauthUpdateStatement(q).run(q, {
      cents,
      feeCents: fee.feeCents,
      feeRateE7: fee.rateE7,
      netCents: fee.netCents,
      at,
      txnId: input.transaction_id,
      merchantId: merchant.id,
      last: input.last_authorized_amount,
      orderId: input.order_id,
      eventId: newId.event(),
      clientId: merchant.clientId,
      eventType: cents > input.last_authorized_amount ? 'preauth.increment' : 'preauth.decrement',
      data: JSON.stringify({
        merchant_id: merchant.id,
        transaction_id: input.transaction_id,
        last_authorized_amount: amountNumber(input.last_authorized_amount),
        authorized_amount: amountNumber(cents),
      } satisfies Omit<EventData['preauth.increment'], 'order_id'>),
    }),
  );
  if (!row) return null;
  outboxWritten(q, 'webhooks');
  return {
    Status: 'Approved',
    Account: row.last_four,
    Brand: row.card_brand,
    AuthCode: row.auth_code,
    Authorized: formatAmount(cents),
    transaction_id: input.transaction_id,
    orderid: row.order_id,
  };
}

/**
 * `writePreauthUpdate`'s statement, built once and prepared (building it with Drizzle on every
 * request cost more than running it); only the placeholders' values change per call.
 */
let preauthUpdatePrepared: PreparedSql | undefined;
function preauthUpdateStatement(q: Queryable): PreparedSql {
  return (preauthUpdatePrepared ??= preparedSql('remit_preauth_update', () => {
    const ph = sql.placeholder;
    // Placeholders bound through the columns' own encoders, as the values were.
    const v = (name: string) => ph(name) as unknown as number;
    const update = q
      .update(transactions)
      .set({
        authorizedCents: v('cents'),
        amountCents: v('cents'),
        feeCents: v('feeCents'),
        feeRateE7: v('feeRateE7'),
        netCents: v('netCents'),
        ...stateColumns(nextState('authorized', 'preauth_update')!),
        updatedAt: ph('at') as unknown as Date,
      })
      .where(
        and(
          eq(transactions.id, ph('txnId')),
          eq(transactions.merchantId, ph('merchantId')),
          eq(transactions.type, 'PreAuth'),
          eq(transactions.isStatus, IS_STATUS.authorized),
          sql`coalesce(${transactions.authorizedCents}, ${transactions.amountCents}) = ${ph('last')}::bigint`,
        ),
      )
      .returning({ id: transactions.id, lastFour: transactions.lastFour, cardBrand: transactions.cardBrand, authCode: transactions.authCode, orderId: transactions.orderId });
    const orderId = sql`coalesce(u.order_id, ${ph('orderId')}::text)`;
    const event = eventInsertSql(
      sql`u`,
      { id: ph('eventId'), clientId: ph('clientId'), merchantId: ph('merchantId'), type: ph('eventType'), data: ph('data') },
      { order_id: orderId },
    );
    return sql`with u as (${update.getSQL()}), e as (${event}) select last_four, card_brand, auth_code, ${orderId} as order_id from u`;
  }));
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
