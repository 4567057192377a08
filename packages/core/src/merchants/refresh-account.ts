import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { merchants } from '../db/schema.js';
import { approveMerchantIn } from './merchants.js';
import { recordVerification } from './verification.js';

/**
 * Reads the merchant's account from the processor now and keeps it (Stripe's `account.updated`,
 * and the return from Stripe's pages, which never assumes anything was completed): approves a
 * pending merchant once charges are enabled (the only way a Stripe merchant is approved), then
 * records what is still due, firing `merchant.verification` if that changed. In the caller's
 * transaction; null when the merchant has no account at the processor.
 */
export async function refreshAccount(
  tx: Queryable,
  ctx: Ctx,
  merchantId: string,
): Promise<{ approved: boolean; changed: boolean } | null> {
  const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchantId)).for('update');
  if (!row?.stripeAccountId || !ctx.processor.accounts) return null;
  const account = await ctx.processor.accounts.verification(row.stripeAccountId);
  let status = row.status;
  let approved = false;
  if (status === 'pending' && account.charges_enabled) {
    const done = await approveMerchantIn(tx, ctx, { merchantId: row.id });
    approved = done !== null && !done.already_approved;
    status = 'approved';
  }
  const changed = await recordVerification(tx, ctx, row, account, status);
  return { approved, changed };
}
