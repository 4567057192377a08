import { and, eq, sql, type SQL } from 'drizzle-orm';
import { errorMessage, type EventData, type PreauthCaptureResult, type PreauthIdInput, type PreauthUpdateResult, type UpdatePreauthInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { eventInsertSql } from '../events/outbox.js';
import { preparedSql, type PreparedSql } from '../db/prepared-sql.js';
import { newId } from '../ids.js';
import { outboxWritten } from '../outbox-signal.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { amountNumber, formatAmount } from '../money.js';
import { feeFor } from './fees.js';
import { lockTransaction, rowsOf, type MoneyRecord, type TxnRow } from './records.js';
import { IS_STATUS, nextState, stateColumns, stateOf } from './state.js';
import { guardedVoidSql, writeGuardedVoid } from './voids.js';
import { withProcessor } from './with-processor.js';
import { declined } from './declines.js';
import { processorKey } from '../processor/keys.js';

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
  const done = await withProcessor(ctx, (q) => writePreauthUpdate(q, ctx, merchant, input));
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

/**
 * The update of an open preauthorization holding `last_authorized_amount`, and its event; then an
 * increase is authorized at the processor (its decline rolls the update back). A decrease asks
 * nothing of the processor: capture takes the lower amount and releases the rest. Null when the
 * guard refused.
 */
async function writePreauthUpdate(
  q: Queryable,
  ctx: Pick<Ctx, 'now' | 'processor'>,
  merchant: Merchant,
  input: UpdatePreauthInput,
): Promise<PreauthUpdateResult | null> {
  const at = merchantNow(ctx.now, merchant);
  const cents = input.new_authorized_amount;
  // The hold shows the fee of its current amount, as at creation; capture prices it again.
  const fee = feeFor(merchant, 'card', cents);
  const eventId = newId.event();
  const [row] = rowsOf<{ last_four: string; card_brand: string; auth_code: string; order_id: string; gateway_ref: string | null }>(
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
      idempotencyKey: processorKey('increment', eventId),
    });
    if (!result.approved) throw declined(result.code, result.message, input.transaction_id);
  }
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
      { id: ph('eventId'), clientId: ph('clientId'), merchantId: ph('merchantId'), type: ph('eventType'), data: ph('data') },
      { order_id: orderId },
    );
    return sql`with u as (${update.getSQL()}), e as (${event}) select last_four, card_brand, auth_code, ${orderId} as order_id, gateway_ref from u`;
  }));
}

/**
 * `POST /preauth/capture` when the preauthorization is open (the usual case): one statement, its
 * UPDATE guarded by the state (it takes the row lock and rechecks against the latest row), prices
 * the held amount (the merchant's current pricing, in SQL: the amount is the row's), completes it
 * and writes `preauth.charge` and `payment.success`. Otherwise, in one transaction under the row
 * lock, the refusal that applies, or the capture after all.
 */
export async function capturePreauth(ctx: Ctx, merchant: Merchant, input: PreauthIdInput): Promise<PreauthCaptureResult> {
  const done = await withProcessor(ctx, (q) => writeCapture(q, ctx, merchant, input.transaction_id));
  if (done) return done;
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_capture');
    const captured = await writeCapture(tx, ctx, merchant, input.transaction_id);
    if (!captured) throw new Error(`capture of ${row.id} refused by its guard although the locked row allows it`);
    return captured;
  });
}

/** The capture of an open preauthorization and its two events, then at the processor; null when the guard refused. */
async function writeCapture(q: Queryable, ctx: Pick<Ctx, 'now' | 'processor'>, merchant: Merchant, txnId: string): Promise<PreauthCaptureResult | null> {
  const ids = { merchant_id: merchant.id, transaction_id: txnId };
  const [row] = rowsOf<{
    last_four: string;
    card_brand: string;
    auth_code: string;
    order_id: string;
    amount_cents: string | number;
    net_cents: string | number;
    gateway_ref: string | null;
  }>(
    await captureStatement().run(q, {
      at: merchantNow(ctx.now, merchant).toISOString(),
      txnId,
      merchantId: merchant.id,
      cardRate: merchant.cardFeeRateE7,
      cardFixed: merchant.cardFeeFixedCents,
      achRate: merchant.achFeeRateE7,
      achCap: merchant.achFeeCapCents,
      clientId: merchant.clientId,
      chargeId: newId.event(),
      successId: newId.event(),
      data: JSON.stringify(ids),
    }),
  );
  if (!row) return null;
  const cents = Number(row.amount_cents);
  // A preauthorization is captured once: its own id keys the capture.
  // With a payee, Stripe keeps back the fee the statement just priced: amount − net.
  const applicationFeeCents = merchant.stripeAccountId ? cents - Number(row.net_cents) : undefined;
  await ctx.processor.capture({ gatewayRef: row.gateway_ref ?? '', amountCents: cents, applicationFeeCents, idempotencyKey: processorKey('capture', txnId) });
  outboxWritten(q, 'webhooks');
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
 * `writeCapture`'s statement, built once and prepared. The fee is `feeFor` in SQL over the row
 * being updated (never over an earlier read, which a concurrent update could have changed):
 * card, amount × rate rounded half up + fixed; ACH, the same product capped. Amounts in the
 * events are `amountNumber`'s (cents / 100 as a double).
 */
let capturePrepared: PreparedSql | undefined;
function captureStatement(): PreparedSql {
  return (capturePrepared ??= preparedSql('remit_preauth_capture', () => {
    const ph = sql.placeholder;
    const at = sql`${ph('at')}::timestamptz`;
    const held = sql`coalesce(authorized_cents, amount_cents)`;
    const rated = (rate: string) => sql`div(${held}::numeric * ${ph(rate)}::bigint + 500000000, 1000000000)::bigint`;
    const fee = sql`(case when payment_method = 'ach' then least(${rated('achRate')}, ${ph('achCap')}::bigint)
      else ${rated('cardRate')} + ${ph('cardFixed')}::bigint end)`;
    const completed = stateColumns(nextState('authorized', 'preauth_capture')!);
    const update = sql`update transactions set is_status = ${completed.isStatus}::smallint, status = ${completed.status}::text,
      amount_cents = ${held}, fee_cents = ${fee},
      fee_rate_e7 = case when payment_method = 'ach' then ${ph('achRate')}::int else ${ph('cardRate')}::int end,
      net_cents = ${held} - ${fee}, completed_at = ${at}, updated_at = ${at}
    where id = ${ph('txnId')} and merchant_id = ${ph('merchantId')} and type = 'PreAuth'
      and is_status = ${IS_STATUS.authorized}::smallint
    returning *`;
    const amount = (column: string) => sql`(${sql.raw(`u.${column}`)} / 100.0)::float8`;
    const money = { amount: amount('amount_cents'), net_amount: amount('net_cents'), fee_amount: amount('fee_cents') };
    const orderId = sql`coalesce(u.order_id, '')`;
    const event = (id: string, type: 'preauth.charge' | 'payment.success', fromRow: Record<string, SQL>) =>
      eventInsertSql(sql`u`, { id: ph(id), clientId: ph('clientId'), merchantId: ph('merchantId'), type, data: ph('data') }, fromRow);
    const charged = event('chargeId', 'preauth.charge', { order_id: orderId, ...money });
    const success = event('successId', 'payment.success', {
      ...money,
      order_id: orderId,
      last_four: sql`u.last_four`,
      brand: sql`u.card_brand`,
      link_id: sql`coalesce(u.pay_link_id, '')`,
    });
    return sql`with u as (${update}), c as (${charged}), s as (${success})
      select last_four, card_brand, auth_code, ${orderId} as order_id, amount_cents, net_cents, gateway_ref from u`;
  }));
}

/**
 * `POST /preauth/void`: releases the hold, a Void record for the authorized amount and
 * `preauth.void`, in one statement guarded by the state when the preauthorization is open (the
 * usual case); otherwise, in one transaction under the row lock, the refusal that applies, or
 * the void after all.
 */
export async function voidPreauth(ctx: Ctx, merchant: Merchant, input: PreauthIdInput): Promise<MoneyRecord> {
  const done = await withProcessor(ctx, (q) =>
    writeGuardedVoid(q, ctx, preauthVoidStatement(), merchant, input.transaction_id, merchantNow(ctx.now, merchant), true),
  );
  if (done) return done;
  return ctx.db.transaction(async (tx) => {
    const row = await lockPreauth(tx, merchant.id, input.transaction_id, 'preauth_void');
    const voided = await writeGuardedVoid(tx, ctx, preauthVoidStatement(), merchant, row.id, merchantNow(ctx.now, merchant), true);
    if (!voided) throw new Error(`void of ${row.id} refused by its guard although the locked row allows it`);
    return voided;
  });
}

/** `voidPreauth`'s statement, built once and prepared: the whole hold is released. */
let preauthVoidPrepared: PreparedSql | undefined;
function preauthVoidStatement(): PreparedSql {
  return (preauthVoidPrepared ??= preparedSql('remit_preauth_void', () => {
    if (nextState('authorized', 'preauth_void') !== 'voided') throw new Error('the state table no longer voids an open preauthorization');
    const guard = sql`type = 'PreAuth' and is_status = ${IS_STATUS.authorized}::smallint`;
    return guardedVoidSql(guard, (t) => sql`coalesce(${t}.authorized_cents, ${t}.amount_cents)`, 'preauth.void');
  }));
}
