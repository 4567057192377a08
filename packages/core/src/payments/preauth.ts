import { sql, type SQL } from 'drizzle-orm';
import type {
  EventData,
  PreauthCaptureResult,
  PreauthIdInput,
  PreauthUpdateResult,
  UpdatePreauthInput,
} from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { eventInsertSql } from '../webhooks/outbox.js';
import { preparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { inTransaction, outboxWritten } from '../operation.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount } from '../money.js';
import { feeFor, feeRule } from './fees.js';
import { NO_GIVEN_FIELDS, PAYMENT_SUCCESS, PREAUTH_CHARGE, payloadSql } from './payloads.js';
import { lockTransaction, rowsOf, type MoneyRecord, type TxnRow } from './records.js';
import { col } from './row-expr.js';
import { heldCents, preauthCaptureGuard, preauthUpdateGuard, preauthVoidGuard } from './rules.js';
import { stateColumns, targetOf } from './state.js';
import { guardedVoidSql, writeGuardedVoid } from './voids.js';
import { withProcessor } from './with-processor.js';
import { declined } from './declines.js';
import { processorKey } from '../processor/keys.js';

/** Preauthorizations: `POST /preauth/update`, `/preauth/capture`, `/preauth/void`. */

export { AMOUNT_MISMATCH_MESSAGE } from './rules.js';
export const PREAUTH_NOT_FOUND_MESSAGE =
  'Preauthorization not found: no preauthorization with this transaction_id belongs to this merchant.';

const GUARDS = {
  preauth_update: preauthUpdateGuard,
  preauth_capture: preauthCaptureGuard,
  preauth_void: preauthVoidGuard,
};

/**
 * The original preauthorization, locked, or the refusal of its guard (rules.ts): void, refund and
 * capture records are refused by type, only the original preauthorization ID is accepted, and the
 * state must allow `event`. `last`: the amount an update expects held.
 */
async function lockPreauth(
  tx: Queryable,
  merchantId: string,
  id: string,
  event: keyof typeof GUARDS,
  last?: number,
): Promise<TxnRow> {
  const row = await lockTransaction(tx, merchantId, id);
  if (!row) throw notFound('preauth_not_found', PREAUTH_NOT_FOUND_MESSAGE);
  const refusal = GUARDS[event].refusal(row, { last });
  if (refusal) throw refusal;
  return row;
}

/**
 * `POST /preauth/update` when the preauthorization is open and holds `last_authorized_amount`
 * (the usual case): one statement, its UPDATE the compare-and-set (it takes the row lock and
 * rechecks the guard against the latest row), writes the new amount and the event. Otherwise, in
 * one transaction under the row lock, the refusal that applies, or the update after all.
 */
export async function updatePreauth(
  ctx: Ctx,
  merchant: Merchant,
  input: UpdatePreauthInput,
): Promise<PreauthUpdateResult> {
  if (input.new_authorized_amount === input.last_authorized_amount) {
    throw invalid(
      'amount_unchanged',
      'new_authorized_amount equals last_authorized_amount; there is nothing to change.',
    );
  }
  const done = await withProcessor(ctx, (q, ctx) => writePreauthUpdate(q, ctx, merchant, input));
  if (done) return done;
  return inTransaction(ctx, async (tx, ctx) => {
    // Compare-and-set: the row is locked, so the amount read here is the one this update replaces.
    const row = await lockPreauth(
      tx,
      merchant.id,
      input.transaction_id,
      'preauth_update',
      input.last_authorized_amount,
    );
    const updated = await writePreauthUpdate(tx, ctx, merchant, input);
    if (!updated) throw new Error(`preauth update of ${row.id} refused by its guard although the locked row allows it`);
    return updated;
  });
}

/**
 * The update of an open preauthorization holding `last_authorized_amount`, and its event; then an
 * increase is authorized at the processor (its decline rolls the update back). A decrease asks
 * nothing of the processor: capture takes the lower amount and releases the rest. Null when the
 * guard refused.
 */
async function writePreauthUpdate(
  q: Queryable,
  ctx: Pick<Ctx, 'now' | 'processor' | 'op' | 'outbox'>,
  merchant: Merchant,
  input: UpdatePreauthInput,
): Promise<PreauthUpdateResult | null> {
  const at = merchantNow(ctx.now, merchant);
  const cents = input.new_authorized_amount;
  // The hold shows the fee of its current amount, as at creation; capture prices it again.
  const fee = feeFor(merchant, 'card', cents);
  const eventId = newId.event();
  const [row] = rowsOf<{
    last_four: string;
    card_brand: string;
    auth_code: string;
    order_id: string;
    gateway_ref: string | null;
  }>(
    await preauthUpdateStatement.run(q, {
      cents,
      feeCents: fee.feeCents,
      feeRateE7: fee.rateE7,
      netCents: fee.netCents,
      at,
      txnId: input.transaction_id,
      merchantId: merchant.id,
      last: input.last_authorized_amount,
      orderId: input.order_id,
      eventId,
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
  if (cents > input.last_authorized_amount) {
    // Keyed by the update's event: one per change of the amount.
    const result = await ctx.processor.incrementAuthorization({
      gatewayRef: row.gateway_ref ?? '',
      amountCents: cents,
      idempotencyKey: processorKey(ctx.op.key, 'increment', eventId),
    });
    if (!result.approved) throw declined(result.code, result.message, input.transaction_id);
  }
  outboxWritten(ctx, 'webhooks');
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
const preauthUpdateStatement = preparedSql('remit_preauth_update', (q) => {
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
      ...stateColumns(targetOf('preauth_update')),
      updatedAt: ph('at') as unknown as Date,
    })
    .where(
      sql`${transactions.id} = ${ph('txnId')} and ${transactions.merchantId} = ${ph('merchantId')} and ${preauthUpdateGuard.allows.sql()}`,
    )
    .returning({
      id: transactions.id,
      lastFour: transactions.lastFour,
      cardBrand: transactions.cardBrand,
      authCode: transactions.authCode,
      orderId: transactions.orderId,
      gatewayRef: transactions.gatewayRef,
    });
  const orderId = sql`coalesce(u.order_id, ${ph('orderId')}::text)`;
  const event = eventInsertSql(
    sql`u`,
    {
      id: ph('eventId'),
      clientId: ph('clientId'),
      merchantId: ph('merchantId'),
      type: ph('eventType'),
      data: ph('data'),
    },
    { order_id: orderId },
  );
  return sql`with u as (${update.getSQL()}), e as (${event}) select last_four, card_brand, auth_code, ${orderId} as order_id, gateway_ref from u`;
});

/**
 * `POST /preauth/capture` when the preauthorization is open (the usual case): one statement, its
 * UPDATE guarded by the state (it takes the row lock and rechecks against the latest row), prices
 * the held amount (the merchant's current pricing, in SQL: the amount is the row's), completes it
 * and writes `preauth.charge` and `payment.success`. Otherwise, in one transaction under the row
 * lock, the refusal that applies, or the capture after all.
 */
export async function capturePreauth(
  ctx: Ctx,
  merchant: Merchant,
  input: PreauthIdInput,
): Promise<PreauthCaptureResult> {
  const done = await withProcessor(ctx, (q, ctx) => writeCapture(q, ctx, merchant, input.transaction_id));
  if (done) return done;
  return inTransaction(ctx, async (tx, ctx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_capture');
    const captured = await writeCapture(tx, ctx, merchant, input.transaction_id);
    if (!captured) throw new Error(`capture of ${row.id} refused by its guard although the locked row allows it`);
    return captured;
  });
}

/** The capture of an open preauthorization and its two events, then at the processor; null when the guard refused. */
async function writeCapture(
  q: Queryable,
  ctx: Pick<Ctx, 'now' | 'processor' | 'op' | 'outbox'>,
  merchant: Merchant,
  txnId: string,
): Promise<PreauthCaptureResult | null> {
  const [row] = rowsOf<{
    last_four: string;
    card_brand: string;
    auth_code: string;
    order_id: string;
    amount_cents: string | number;
    net_cents: string | number;
    gateway_ref: string | null;
  }>(
    await captureStatement.run(q, {
      at: merchantNow(ctx.now, merchant).toISOString(),
      txnId,
      merchantId: merchant.id,
      cardFeeRateE7: merchant.cardFeeRateE7,
      cardFeeFixedCents: merchant.cardFeeFixedCents,
      achFeeRateE7: merchant.achFeeRateE7,
      achFeeCapCents: merchant.achFeeCapCents,
      clientId: merchant.clientId,
      chargeId: newId.event(),
      successId: newId.event(),
    }),
  );
  if (!row) return null;
  const cents = Number(row.amount_cents);
  // A preauthorization is captured once: its own id keys the capture.
  // With a payee, Stripe keeps back the fee the statement just priced: amount − net.
  const applicationFeeCents = merchant.stripeAccountId ? cents - Number(row.net_cents) : undefined;
  await ctx.processor.capture({
    gatewayRef: row.gateway_ref ?? '',
    amountCents: cents,
    applicationFeeCents,
    idempotencyKey: processorKey(ctx.op.key, 'capture', txnId),
    deferTo: ctx.op.deferred,
    reference: txnId,
  });
  outboxWritten(ctx, 'webhooks');
  return {
    Status: 'Approved',
    Account: row.last_four,
    Brand: row.card_brand,
    AuthCode: row.auth_code,
    amount: formatAmount(cents),
    Authorized: amountNumber(cents),
    orderid: row.order_id,
    transaction_id: txnId,
    net_amount: amountNumber(Number(row.net_cents)),
  };
}

/**
 * `writeCapture`'s statement, built once and prepared. The fee is `feeRule` over the row being
 * updated (never over an earlier read, which a concurrent update could have changed), at the
 * merchant's pricing as the request resolved it; both events' payloads are read from the captured row.
 */
const captureStatement = preparedSql('remit_preauth_capture', () => {
  const ph = sql.placeholder;
  const at = sql`${ph('at')}::timestamptz`;
  const fee = feeRule(col.text('paymentMethod'), heldCents);
  const completed = stateColumns(targetOf('preauth_capture'));
  // SET reads the row as it was: the hold is priced, then becomes the amount.
  const update = sql`update transactions set is_status = ${completed.isStatus}::smallint, status = ${completed.status}::text,
      amount_cents = ${heldCents.sql()}, fee_cents = ${fee.feeCents.sql()}, fee_rate_e7 = ${fee.rateE7.sql()},
      net_cents = ${fee.netCents.sql()}, completed_at = ${at}, updated_at = ${at}
    where id = ${ph('txnId')} and merchant_id = ${ph('merchantId')} and ${preauthCaptureGuard.allows.sql()}
    returning *`;
  const event = (id: string, type: 'preauth.charge' | 'payment.success', fromRow: Record<string, SQL>) =>
    eventInsertSql(
      sql`u`,
      { id: ph(id), clientId: ph('clientId'), merchantId: ph('merchantId'), type, data: NO_GIVEN_FIELDS },
      fromRow,
    );
  const charged = event('chargeId', 'preauth.charge', payloadSql(PREAUTH_CHARGE, 'u'));
  const success = event('successId', 'payment.success', payloadSql(PAYMENT_SUCCESS, 'u'));
  return sql`with u as (${update}), c as (${charged}), s as (${success})
      select last_four, card_brand, auth_code, coalesce(order_id, '') as order_id, amount_cents, net_cents, gateway_ref from u`;
});

/**
 * `POST /preauth/void`: releases the hold, a Void record for the authorized amount and
 * `preauth.void`, in one statement guarded by the state when the preauthorization is open (the
 * usual case); otherwise, in one transaction under the row lock, the refusal that applies, or
 * the void after all.
 */
export async function voidPreauth(ctx: Ctx, merchant: Merchant, input: PreauthIdInput): Promise<MoneyRecord> {
  const done = await withProcessor(ctx, (q, ctx) =>
    writeGuardedVoid(
      q,
      ctx,
      preauthVoidStatement,
      merchant,
      input.transaction_id,
      merchantNow(ctx.now, merchant),
      true,
    ),
  );
  if (done) return done;
  return inTransaction(ctx, async (tx, ctx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_void');
    const voided = await writeGuardedVoid(
      tx,
      ctx,
      preauthVoidStatement,
      merchant,
      row.id,
      merchantNow(ctx.now, merchant),
      true,
    );
    if (!voided) throw new Error(`void of ${row.id} refused by its guard although the locked row allows it`);
    return voided;
  });
}

/** `voidPreauth`'s statement, built once and prepared: the whole hold is released. */
const preauthVoidStatement = preparedSql('remit_preauth_void', () => {
  return guardedVoidSql(preauthVoidGuard, 'preauth_void', 'preauth.void');
});
