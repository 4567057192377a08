import { errorMessage, type ChargeData, type ChargeInput } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { sql } from 'drizzle-orm';
import { givenKeys, placeholderNames, preparedByShape } from '../db/prepared-sql.js';
import { events, transactions } from '../db/schema.js';
import { outboxWritten, type Writer } from '../operation.js';
import { customerToCharge } from '../customers/customers.js';
import { revealBankAccount, revealCard, type PaymentMethodRow } from '../customers/vault.js';
import { invalid } from '../errors.js';
import { writeWithEvent } from '../webhooks/outbox.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { requireChargesEnabled } from '../merchants/verification.js';
import { amountNumber, formatAmount, formatRate } from '../money.js';
import { authorizedColumns } from './authorization.js';
import { feeFor } from './fees.js';
import { paymentSuccessData } from './payloads.js';
import { payeeOf } from './payee.js';
import { declined } from './declines.js';
import { paymentFailedData } from './failed-event.js';
import { processorKey } from '../processor/keys.js';
import { OutcomeUnknown } from '../processor/connector.js';
import { PROCESSING_MESSAGE, recordProcessing } from './processing-charges.js';
import { allowsStatus, stateColumns } from './state.js';

export const MERCHANT_NOT_APPROVED_MESSAGE = errorMessage('merchant_not_approved');

export const MERCHANT_SUSPENDED_MESSAGE = errorMessage('merchant_suspended');

/**
 * Refuses payments for a merchant still waiting for approval (links and customers may be made
 * before), suspended by the operator, or whose charges the processor holds off (409
 * merchant_restricted). `customerMessage`: what a customer paying is told instead (the pay page)
 * of a merchant not approved or suspended.
 */
export function requireApproved(merchant: Pick<Merchant, 'status' | 'verification'>, customerMessage?: string) {
  if (merchant.status === 'approved') return requireChargesEnabled(merchant);
  const code = merchant.status === 'suspended' ? 'merchant_suspended' : 'merchant_not_approved';
  throw invalid(
    code,
    customerMessage ?? (code === 'merchant_suspended' ? MERCHANT_SUSPENDED_MESSAGE : MERCHANT_NOT_APPROVED_MESSAGE),
  );
}

/** Card brand recorded for ACH transactions, so lists and events show what was used. */
export const ACH_BRAND = 'ACH';

type TxnRow = typeof transactions.$inferSelect;
type NewTxn = typeof transactions.$inferInsert;

/**
 * Charges a stored customer's default payment method.
 * - Card: authorized at the processor first, then the transaction row (and `payment.success`, for a
 *   sale) is written in one database transaction; a decline is recorded the same way and then
 *   answered with 402. No database transaction stays open across the processor call.
 * - Bank account: an ACH debit is started and recorded as a pending sale; `/update-ach` settles it.
 * - `preAuth: true` (cards only) holds the amount instead: a `PreAuth` row, no event until capture.
 */
export async function chargeCustomer(ctx: Ctx, merchant: Merchant, customerId: string, input: ChargeInput) {
  requireApproved(merchant);
  const customer = await customerToCharge(ctx.db, merchant.id, customerId);
  const method = customer.method;
  if (!method) {
    throw invalid(
      'no_payment_method',
      'This customer has no stored payment method; ask for one with POST /customers/request-card/{customerId}.',
    );
  }
  if (input.amount > merchant.maxAmountCents) {
    const message = `must be at most ${formatAmount(merchant.maxAmountCents)} for this merchant`;
    throw invalid('amount_over_limit', `amount ${message}.`, [{ path: 'amount', message }]);
  }
  const now = merchantNow(ctx.now, merchant);
  const base = {
    id: newId.transaction(),
    merchantId: merchant.id,
    amountCents: input.amount,
    customerId: customer.customerId,
    paymentMethodId: method.id,
    orderId: input.order_id,
    orderCreatedfrom: 'API',
    lastFour: method.last4,
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<NewTxn>;
  const row =
    method.type === 'card'
      ? await chargeCard(ctx, merchant, method, input, base, now)
      : await chargeBankAccount(ctx, merchant, method, input, base);
  return chargeView(row);
}

type Base = Pick<
  NewTxn,
  | 'id'
  | 'merchantId'
  | 'amountCents'
  | 'customerId'
  | 'paymentMethodId'
  | 'orderId'
  | 'orderCreatedfrom'
  | 'lastFour'
  | 'createdAt'
  | 'updatedAt'
>;

async function chargeCard(
  ctx: Ctx,
  merchant: Merchant,
  method: PaymentMethodRow,
  input: ChargeInput,
  base: Base,
  now: Date,
) {
  const key = processorKey(ctx.op.key, 'authorize', base.id);
  const type = input.preAuth ? 'PreAuth' : 'Sale';
  let result: Awaited<ReturnType<Ctx['processor']['authorizeCard']>>;
  try {
    result = await ctx.processor.authorizeCard(revealCard(ctx, method), input.amount, {
      capture: !input.preAuth,
      now,
      idempotencyKey: key,
      payee: payeeOf(merchant, 'card', input.amount),
    });
  } catch (e) {
    // The processor may have charged: recorded `processing` and settled by asking it (payments/processing-charges.ts).
    if (e instanceof OutcomeUnknown)
      return recordProcessing(ctx.db, { ...base, type, paymentMethod: 'card', cardBrand: method.brand ?? '' }, key);
    throw e;
  }
  const card = { ...base, paymentMethod: 'card', cardBrand: method.brand ?? '', gatewayRef: result.gatewayRef };
  if (!result.approved) {
    // The declined row and its payment.failed: one statement, atomic without a transaction
    // (BEGIN and COMMIT would be two more round trips).
    const decline = ctx.db.insert(transactions).values({
      ...card,
      type: input.preAuth ? 'PreAuth' : 'Sale',
      ...stateColumns('declined'),
      feeCents: 0,
      feeRateE7: 0,
      netCents: 0,
      declineReason: result.message,
    });
    await writeWithEvent(ctx, [decline], {
      clientId: merchant.clientId,
      merchantId: merchant.id,
      type: 'payment.failed',
      data: paymentFailedData({
        merchantId: merchant.id,
        clientId: merchant.clientId,
        transactionId: base.id,
        orderId: base.orderId ?? null,
        amountCents: input.amount,
        code: result.code,
        message: result.message,
        method: 'card',
      }),
    });
    // A connector's own decline codes answer as the generic decline.
    throw declined(result.code, result.message, base.id);
  }
  const values: NewTxn = {
    ...card,
    type: input.preAuth ? 'PreAuth' : 'Sale',
    ...authorizedColumns(merchant, input.amount, input.preAuth, now),
    authCode: result.authCode,
  };
  if (input.preAuth) {
    const [row] = await ctx.db.insert(transactions).values(values).returning();
    return row!;
  }
  // The sale and its payment.success event: one statement, atomic without a transaction.
  const row = transactionRow(values);
  await writeSale(ctx, values, { clientId: merchant.clientId, merchantId: merchant.id, data: paymentSuccessData(row) });
  return row;
}

/** Prepared sale + `payment.success` inserts, one per shape of the sale's values (columns given, and which are null). */
const sales = preparedByShape('remit_charge_sale_');
const saleNames = placeholderNames('t_');

/**
 * `writeWithEvent` of a sale and its `payment.success`, prepared: the same statement (the sale a
 * CTE of the event's insert, one round trip, atomic on its own), built once per shape and sent by
 * name; each call only binds the values (each through its column's encoder, as Drizzle would).
 */
async function writeSale(
  w: Writer,
  values: NewTxn,
  e: { clientId: string; merchantId: string; data: ReturnType<typeof paymentSuccessData> },
): Promise<void> {
  const db = w.db;
  const keys = givenKeys(values);
  const shape = keys.map((k) => (values[k] === null ? `${k}=null` : k)).join(',');
  const p = sales(shape, () => {
    const ph = sql.placeholder;
    // A null stays a null parameter (a column encoder is not given nulls).
    const row = Object.fromEntries(
      keys.map((k) => [k, values[k] === null ? null : ph(saleNames(k))]),
    ) as unknown as NewTxn;
    const event = db.insert(events).values({
      id: ph('e_id') as unknown as string,
      clientId: ph('e_client') as unknown as string,
      merchantId: ph('e_merchant') as unknown as string,
      eventType: 'payment.success',
      payload: ph('e_payload'),
    });
    return sql`with w0 as (${db.insert(transactions).values(row).getSQL()}) ${event.getSQL()}`;
  });
  if (!p) {
    await writeWithEvent(w, [db.insert(transactions).values(values)], { ...e, type: 'payment.success' });
    return;
  }
  const bound: Record<string, unknown> = {
    e_id: newId.event(),
    e_client: e.clientId,
    e_merchant: e.merchantId,
    e_payload: e.data,
  };
  for (const k of keys) if (values[k] !== null) bound[saleNames(k)] = values[k];
  await p.run(db, bound);
  outboxWritten(w, 'webhooks');
}

/**
 * The row `values` makes, for the view and the event (no `returning` needed): every column they
 * read is in `values`; the columns left to their defaults get them here.
 */
function transactionRow(values: NewTxn): TxnRow {
  return { refundedCents: 0, settled: false, settledAt: null, linkedTxnId: null, payLinkId: null, ...values } as TxnRow;
}

async function chargeBankAccount(
  ctx: Ctx,
  merchant: Merchant,
  method: PaymentMethodRow,
  input: ChargeInput,
  base: Base,
) {
  if (input.preAuth) {
    throw invalid(
      'preauth_needs_card',
      "A preauthorization needs a card; this customer's default payment method is a bank account.",
      [{ path: 'preAuth', message: 'is only possible on a card' }],
    );
  }
  const account = revealBankAccount(ctx, method);
  const { gatewayRef } = await ctx.processor.startAchDebit({
    ...('token' in account ? { routingNumber: '', accountNumber: '', token: account.token } : account),
    amountCents: input.amount,
    holderName: method.holderName ?? undefined,
    accountType: method.accountType ?? undefined,
    idempotencyKey: processorKey(ctx.op.key, 'ach_debit', base.id),
    payee: payeeOf(merchant, 'ach', input.amount),
  });
  const fee = feeFor(merchant, 'ach', input.amount);
  // A pending sale and no event: one insert, atomic on its own.
  const [row] = await ctx.db
    .insert(transactions)
    .values({
      ...base,
      type: 'Sale',
      paymentMethod: 'ach',
      cardBrand: ACH_BRAND,
      gatewayRef,
      ...stateColumns('pending'),
      feeCents: fee.feeCents,
      feeRateE7: fee.rateE7,
      netCents: fee.netCents,
    })
    .returning();
  return row!;
}

/** `payment.success` payload of a completed transaction (ACH approval sends the same shape). */
export { paymentSuccessData } from './payloads.js';

/** `data` of the charge response (the spec leaves its shape open; documented in the OpenAPI schema). */
export function chargeView(row: TxnRow): ChargeData {
  return {
    transaction_id: row.id,
    amount: formatAmount(row.amountCents),
    status: row.status,
    is_status: row.isStatus,
    type: row.type,
    payment_method: row.paymentMethod,
    auth_code: row.authCode,
    card_brand: row.cardBrand,
    last_four: row.lastFour,
    fee_amount: amountNumber(row.feeCents),
    fee_percentage: formatRate(row.feeRateE7),
    net_amount: amountNumber(row.netCents),
    order_id: row.orderId ?? '',
    customer_id: row.customerId ?? 0,
    created_date: row.createdAt.toISOString(),
  };
}
export type ChargeView = ChargeData;

/** The success message of each outcome. */
export function chargeMessage(view: ChargeView): string {
  if (allowsStatus(view.is_status, 'preauth_capture')) return 'Preauthorization approved.';
  if (allowsStatus(view.is_status, 'ach_approve'))
    return 'ACH payment submitted; it stays pending until the bank approves it.';
  if (view.status === 'processing') return PROCESSING_MESSAGE;
  return 'Payment approved.';
}
