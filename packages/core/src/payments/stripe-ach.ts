import { and, eq } from 'drizzle-orm';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { merchants, transactions } from '../db/schema.js';
import { resolveAch } from './ach.js';
import { allowsStatus } from './state.js';

/**
 * A pending ACH debit of this PaymentIntent, resolved once (`afterSuccess`: a completed one may
 * also be returned); any other state is left as it is.
 */
export async function achResult(
  tx: Queryable,
  ctx: Ctx,
  intentId: string,
  outcome: { approved: true } | { approved: false; message: string },
  opts: { afterSuccess?: boolean } = {},
): Promise<boolean> {
  const [row] = await tx
    .select()
    .from(transactions)
    .where(
      and(eq(transactions.gatewayRef, intentId), eq(transactions.paymentMethod, 'ach'), eq(transactions.type, 'Sale')),
    )
    .for('update');
  if (!row) return false;
  // A return after success is taken back only from a completed debit nothing was refunded from yet.
  const returnable = opts.afterSuccess && allowsStatus(row.isStatus, 'ach_return') && row.refundedCents === 0;
  if (!allowsStatus(row.isStatus, 'ach_approve') && !returnable) return false;
  const [merchant] = await tx.select().from(merchants).where(eq(merchants.id, row.merchantId));
  await resolveAch(
    { ...ctx, db: tx },
    { id: merchant!.id, clientId: merchant!.clientId },
    row,
    outcome,
    merchantNow(ctx.now, merchant!),
  );
  return true;
}
