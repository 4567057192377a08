import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import { settleLinkAttempt } from '../pay-page/processing-attempts.js';
import { settleProcessing } from '../payments/processing-charges.js';
import type { PaymentLookup } from '../processor/connector.js';

/**
 * A `processing` payment, found by the processor key it was sent with, settled with what the
 * processor says: a pay page attempt through its link (pay-page/processing-attempts.ts), an API charge as
 * itself (payments/processing-charges.ts). Answers whether it changed, or null when no payment has that key.
 */
export async function settleProcessingByKey(
  ctx: Ctx,
  tx: Tx,
  key: string,
  lookup: PaymentLookup,
  absentIsFinal: boolean,
): Promise<boolean | null> {
  // Read first without a lock: a link's sale is locked after its link, as every pay attempt does.
  const [found] = await tx
    .select({ id: transactions.id, payLinkId: transactions.payLinkId })
    .from(transactions)
    .where(eq(transactions.gatewayRef, key));
  if (!found) return null;
  if (found.payLinkId) return settleLinkAttempt(ctx, tx, found.payLinkId, lookup, absentIsFinal);
  const [row] = await tx.select().from(transactions).where(eq(transactions.id, found.id)).for('update');
  return settleProcessing(tx, ctx, row!, lookup, absentIsFinal);
}
