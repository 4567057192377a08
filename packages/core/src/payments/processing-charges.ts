import { eq } from 'drizzle-orm';
import { recordPaymentFailed } from './failed-event.js';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { merchants, transactions } from '../db/schema.js';
import { recordEvent } from '../webhooks/outbox.js';
import type { PaymentLookup } from '../processor/connector.js';
import { paymentSuccessData } from './payloads.js';
import { authorizedColumns } from './authorization.js';
import type { TxnRow } from './records.js';
import { nextState, stateColumns, stateOf } from './state.js';

/**
 * A card payment whose authorization's outcome is unknown (the processor timed out or answered
 * 5xx): recorded `processing` (is_status 7), never guessed. Until the processor is asked, its
 * `gateway_ref` holds the processor idempotency key the payment was sent with, by which
 * reconciliation (reconciliation/reconcile.ts) finds it.
 */

/** The charge's answer: HTTP 202 with the transaction, `status: "processing"`. */
export const PROCESSING_MESSAGE =
  'Payment processing: the processor did not confirm it in time. Remit asks the processor and completes or declines this transaction (payment.success when approved); do not charge again.';

/** What the processor has no record of after this long was never made (Stripe's search may lag a minute). */
export const ABSENT_AFTER_MS = 10 * 60_000;

export const PROCESSOR_NEVER_MADE_MESSAGE = 'The payment processor has no record of this payment; nothing was charged.';

type NewTxn = typeof transactions.$inferInsert;

export async function recordProcessing(
  db: Queryable,
  values: Omit<NewTxn, 'isStatus' | 'status' | 'feeCents' | 'feeRateE7' | 'netCents' | 'gatewayRef'>,
  processorKey: string,
): Promise<TxnRow> {
  const [row] = await db
    .insert(transactions)
    .values({
      ...values,
      ...stateColumns('processing'),
      feeCents: 0,
      feeRateE7: 0,
      netCents: 0,
      gatewayRef: processorKey,
    })
    .returning();
  return row!;
}

/**
 * A `processing` row (locked by the caller) as the processor says: approved becomes what the
 * charge would have made (a completed sale with `payment.success`, or an authorized
 * preauthorization), declined is recorded declined. `absent` declines only when `absentIsFinal`
 * (old enough that the processor would know it). Answers whether the row changed.
 */
export async function settleProcessing(
  tx: Queryable,
  ctx: Pick<Ctx, 'now' | 'op' | 'outbox'>,
  row: TxnRow,
  lookup: PaymentLookup,
  absentIsFinal: boolean,
): Promise<boolean> {
  if (stateOf(row.isStatus) !== 'processing') return false;
  if (lookup.state === 'pending' || (lookup.state === 'absent' && !absentIsFinal)) return false;
  const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, row.merchantId));
  const at = merchantNow(ctx.now, merchant!);
  if (lookup.state !== 'approved') {
    await tx
      .update(transactions)
      .set({
        ...stateColumns(nextState('processing', 'processor_decline')!),
        gatewayRef: lookup.state === 'declined' ? lookup.gatewayRef : null,
        declineReason: lookup.state === 'declined' ? lookup.message : PROCESSOR_NEVER_MADE_MESSAGE,
        updatedAt: at,
      })
      .where(eq(transactions.id, row.id));
    await recordPaymentFailed(
      { ...ctx, db: tx },
      {
        merchantId: merchant!.id,
        clientId: merchant!.clientId,
        transactionId: row.id,
        orderId: row.orderId,
        amountCents: row.amountCents,
        code: lookup.state === 'declined' ? lookup.code : 'card_declined',
        message: lookup.state === 'declined' ? lookup.message : PROCESSOR_NEVER_MADE_MESSAGE,
        method: 'card',
      },
    );
    return true;
  }
  const preauth = row.type === 'PreAuth';
  const [done] = await tx
    .update(transactions)
    .set({
      ...authorizedColumns(merchant!, row.amountCents, preauth, at),
      authCode: lookup.authCode,
      gatewayRef: lookup.gatewayRef,
      updatedAt: at,
    })
    .where(eq(transactions.id, row.id))
    .returning();
  // As the charge itself: a sale reports payment.success, a preauthorization nothing until capture.
  if (!preauth) {
    await recordEvent(
      { ...ctx, db: tx },
      {
        clientId: merchant!.clientId,
        merchantId: merchant!.id,
        type: 'payment.success',
        data: paymentSuccessData(done!),
      },
    );
  }
  return true;
}
