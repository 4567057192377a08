import { eq } from 'drizzle-orm';
import type { SandboxVerificationInput, Verification } from '@remit/contract';
import type { Ctx } from '../context.js';
import { type AccountVerification, merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { inTransaction } from '../operation.js';
import type { Merchant } from './merchant.js';
import { recordVerification, verificationView } from './verification.js';

/** How long a sandbox merchant is given to send what is due (Stripe's `current_deadline`). */
const SANDBOX_DEADLINE_DAYS = 14;

/**
 * `POST /sandbox/merchant-verification`: puts a sandbox merchant in any verification state, as
 * Stripe would: what is due, what was refused and why, charges held off (`restricted`). Empty
 * input clears it. Fires `merchant.verification` when that changes what a client reads.
 */
export async function setSandboxVerification(
  ctx: Ctx,
  merchant: Merchant,
  input: Omit<SandboxVerificationInput, 'merchant_key'>,
): Promise<{ merchant_id: string; verification: Verification }> {
  if (ctx.env !== 'sandbox') {
    throw new RemitError('sandbox_only', 'POST /sandbox/merchant-verification works only in sandbox.');
  }
  const errors = input.errors ?? [];
  // A refused requirement is asked for again, as Stripe does.
  const due = [...new Set([...(input.currently_due ?? []), ...errors.map((e) => e.requirement)])].sort();
  const restricted = input.restricted === true;
  return inTransaction(ctx, async (tx, ctx) => {
    const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchant.id)).for('update');
    // The account's side only: a pending merchant reads charges off until approved (verification.ts).
    const enabled = !restricted;
    const next: AccountVerification | null =
      due.length === 0 && !restricted
        ? null
        : {
            charges_enabled: enabled,
            payouts_enabled: enabled,
            currently_due: due,
            eventually_due: due,
            past_due: restricted ? due : [],
            pending_verification: [],
            errors: errors.map((e) => ({ requirement: e.requirement, code: e.code, reason: e.reason })),
            // A deadline once set stands while something is due, as Stripe's `current_deadline` does.
            deadline:
              due.length > 0 && !restricted
                ? (row!.verification?.deadline ??
                  new Date(ctx.now().getTime() + SANDBOX_DEADLINE_DAYS * 86_400_000).toISOString())
                : null,
            disabled_reason: restricted ? 'requirements.past_due' : null,
            upcoming: { eventually_due: [], deadline: null },
          };
    await recordVerification(tx, ctx, row!, next);
    return { merchant_id: merchant.id, verification: verificationView({ status: row!.status, verification: next }) };
  });
}
