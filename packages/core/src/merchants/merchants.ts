import type { Queryable } from '../db/connect.js';
import { and, desc, eq } from 'drizzle-orm';
import { errorMessage, type MerchantView, type MerchantWithKey } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import type { Merchant } from './merchant-key.js';
import { inTransaction } from '../operation.js';
import { verificationView } from './verification.js';

export type MerchantStatus = MerchantView['status'];

export const MERCHANT_NOT_FOUND_MESSAGE = errorMessage('merchant_not_found');

/** Unknown ids and other clients' merchants fail alike, so ids cannot be probed across tenants. */
const merchantNotFound = () => new RemitError('merchant_not_found', MERCHANT_NOT_FOUND_MESSAGE);

export function merchantView(m: Merchant): MerchantView {
  return {
    businessname: m.businessname,
    email: m.email,
    first_name: m.firstName,
    last_name: m.lastName,
    join_date: m.joinDate.toISOString(),
    merchant_id: m.id,
    phonenumber: m.phonenumber,
    public_data: { public_key: m.publicKey },
    website: m.website,
    status: m.status as MerchantStatus,
    verification: verificationView(m),
  };
}

/** The client's merchants, newest first. */
export async function listMerchants(ctx: Pick<Ctx, 'db'>, clientId: string): Promise<MerchantView[]> {
  const rows = await ctx.db
    .select()
    .from(merchants)
    .where(eq(merchants.clientId, clientId))
    .orderBy(desc(merchants.joinDate), desc(merchants.id));
  return rows.map(merchantView);
}

/** The owner call: one merchant of this client with its decrypted merchant_key. */
export async function getMerchantForOwner(
  ctx: Pick<Ctx, 'db' | 'vault'>,
  clientId: string,
  merchantId: string,
): Promise<MerchantWithKey> {
  const [row] = await ctx.db
    .select()
    .from(merchants)
    .where(and(eq(merchants.id, merchantId), eq(merchants.clientId, clientId)))
    .limit(1);
  if (!row) throw merchantNotFound();
  return { ...merchantView(row), merchant_key: ctx.vault.decrypt(row.merchantKeyEnc) };
}

export interface ApprovalResult {
  merchant_id: string;
  /** True when the merchant was approved before this call; nothing changed and no event fired. */
  already_approved: boolean;
}

/**
 * Sandbox mock of the acquirer's approval: `pending` → `approved`, has the check-deposit provider
 * open the merchant's account if it does that itself (the simulator), and emits `merchant.approval`. Idempotent.
 */
export async function approveMerchant(ctx: Ctx, clientId: string, merchantId: string): Promise<ApprovalResult> {
  if (ctx.env === 'production') {
    throw new RemitError(
      'sandbox_only',
      'approve-merchant is a sandbox-only mock endpoint; in production merchants are approved by the acquirer.',
    );
  }
  return inTransaction(ctx, async (tx, ctx) => {
    const done = await approveMerchantIn(tx, ctx, { merchantId, clientId });
    if (!done) throw merchantNotFound();
    return done;
  });
}

/**
 * The approval itself, in the caller's transaction (the sandbox endpoint, and Stripe's
 * `account.updated` with charges enabled): locks the merchant, approves it once and emits
 * `merchant.approval`. A check-deposit account comes only from the configured provider (the
 * simulator opens one); the approver never makes one up. Null when there is no such merchant.
 */
export async function approveMerchantIn(
  tx: Queryable,
  ctx: Pick<Ctx, 'now' | 'checkDeposits' | 'op' | 'outbox'>,
  who: { merchantId: string; clientId?: string },
): Promise<ApprovalResult | null> {
  const [row] = await tx
    .select()
    .from(merchants)
    .where(
      who.clientId === undefined
        ? eq(merchants.id, who.merchantId)
        : and(eq(merchants.id, who.merchantId), eq(merchants.clientId, who.clientId)),
    )
    .for('update');
  if (!row) return null;
  if (row.status === 'approved') return { merchant_id: row.id, already_approved: true };
  // Approval would lift the suspension; only the operator does that (`remit merchants reinstate`).
  if (row.status === 'suspended') throw new RemitError('merchant_suspended', errorMessage('merchant_suspended'));
  const opener = row.achProviderId ? undefined : ctx.checkDeposits;
  const account = opener?.openAccount
    ? { achProviderId: await opener.openAccount(row.id), checkDepositProvider: opener.name }
    : {};
  await tx
    .update(merchants)
    .set({ status: 'approved', approvedAt: ctx.now(), ...account })
    .where(eq(merchants.id, row.id));
  await recordEvent(
    { ...ctx, db: tx },
    {
      clientId: row.clientId,
      merchantId: row.id,
      type: 'merchant.approval',
      data: { merchant_id: row.id, business_name: row.businessname, email: row.email, company_id: row.clientId },
    },
  );
  return { merchant_id: row.id, already_approved: false };
}
