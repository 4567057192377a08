import { eq } from 'drizzle-orm';
import { errorMessage, nothingDue, type Verification, type VerificationStatus } from '@remit/contract';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { type AccountVerification, merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import type { Merchant } from './merchant.js';
import { requirementLabel } from './requirement-labels.js';

/**
 * What the processor still needs from a merchant: the account as Stripe holds it (kept on the
 * merchant row at each `account.updated` and return from Stripe's pages), or, with nothing
 * recorded (the simulator's merchants), read from the merchant's status. `merchant.verification`
 * fires when what a client would read changes, never for the same account arriving again.
 */

type Verifiable = Pick<Merchant, 'status' | 'verification'>;

/** Nothing asked for: charges as the merchant's approval says. */
function fromStatus(status: string): AccountVerification {
  const enabled = status === 'approved';
  return { charges_enabled: enabled, payouts_enabled: enabled, ...nothingDue() };
}

export const accountOf = (m: Verifiable): AccountVerification => m.verification ?? fromStatus(m.status);

/** A merchant not approved yet takes no charge, whatever its account says (Stripe's enabling approves it at once). */
const chargesOf = (status: string, a: AccountVerification) => a.charges_enabled && status !== 'pending';

export function verificationStatus(status: string, a: AccountVerification): VerificationStatus {
  if (a.disabled_reason?.startsWith('rejected.')) return 'rejected';
  // Approved once, then held back by Stripe: the one state that refuses payments.
  if (status === 'approved' && !a.charges_enabled) return 'restricted';
  if (a.currently_due.length > 0 || a.past_due.length > 0 || a.errors.length > 0) return 'action_required';
  if (!chargesOf(status, a) || a.pending_verification.length > 0) return 'pending_review';
  return 'complete';
}

const items = (names: string[]) => names.map((requirement) => ({ requirement, label: requirementLabel(requirement) }));

export function verificationView(m: Verifiable): Verification {
  const a = accountOf(m);
  return {
    status: verificationStatus(m.status, a),
    currently_due: items(a.currently_due),
    eventually_due: items(a.eventually_due),
    past_due: items(a.past_due),
    pending_verification: items(a.pending_verification),
    errors: a.errors.map((e) => ({
      requirement: e.requirement,
      label: requirementLabel(e.requirement),
      code: e.code,
      reason: e.reason,
    })),
    deadline: a.deadline,
    disabled_reason: a.disabled_reason,
    charges_enabled: chargesOf(m.status, a),
    payouts_enabled: a.payouts_enabled && m.status !== 'pending',
    upcoming: { eventually_due: items(a.upcoming.eventually_due), deadline: a.upcoming.deadline },
  };
}

/**
 * The one guard of new payments against the processor's hold: an approved merchant whose charges
 * Stripe has turned off answers 409 `merchant_restricted`, naming Stripe's reason. Refunds and
 * voids never call it; payouts off are shown, not enforced (Stripe holds that money itself).
 */
export function requireChargesEnabled(m: Verifiable) {
  if (verificationStatus(m.status, accountOf(m)) !== 'restricted') return;
  const reason = accountOf(m).disabled_reason;
  const base = errorMessage('merchant_restricted');
  throw new RemitError('merchant_restricted', reason ? `${base.replace(/\.$/, '')} (${reason}).` : base);
}

/**
 * Keeps `next` as the merchant's account, in the caller's transaction with the row (as read before
 * the change) locked by the caller, and fires `merchant.verification` when the view changes.
 * `status`: the merchant's status after the change (an approval in the same transaction).
 */
export async function recordVerification(
  tx: Queryable,
  ctx: Pick<Ctx, 'op' | 'outbox'>,
  row: Verifiable & Pick<Merchant, 'id' | 'clientId'>,
  next: AccountVerification | null,
  status: string = row.status,
): Promise<boolean> {
  const before = verificationView(row);
  const after = verificationView({ status, verification: next });
  if (JSON.stringify(before) === JSON.stringify(after)) return false;
  await tx.update(merchants).set({ verification: next }).where(eq(merchants.id, row.id));
  await recordEvent(
    { ...ctx, db: tx },
    {
      clientId: row.clientId,
      merchantId: row.id,
      type: 'merchant.verification',
      data: { merchant_id: row.id, verification: after },
    },
  );
  return true;
}
