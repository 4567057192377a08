import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import type { MerchantWithKey, OnboardingInput } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import {
  approveMerchant,
  getMerchantForOwner,
  MERCHANT_NOT_FOUND_MESSAGE,
  merchantView,
} from '../merchants/merchants.js';
import { onboardMerchant } from '../merchants/onboarding.js';
import type { Merchant } from '../merchants/merchant-key.js';

/** The portal's merchants: the signed-in client's own, each with its keys (the owner call, for all). */

const { businessInfo: _b, ownerInfo: _o, processingInfo: _p, ...merchantColumns } = getTableColumns(merchants);

export async function portalMerchants(ctx: Pick<Ctx, 'db' | 'vault'>, clientId: string): Promise<MerchantWithKey[]> {
  const rows = await ctx.db
    .select(merchantColumns)
    .from(merchants)
    .where(eq(merchants.clientId, clientId))
    .orderBy(desc(merchants.joinDate), desc(merchants.id));
  return rows.map((m) => ({ ...merchantView(m), merchant_key: ctx.vault.decrypt(m.merchantKeyEnc) }));
}

/** One merchant of this client, as operations take it; another client's id is the same 404 as an unknown one. */
export async function portalMerchant(ctx: Pick<Ctx, 'db'>, clientId: string, merchantId: string): Promise<Merchant> {
  const [row] = await ctx.db
    .select(merchantColumns)
    .from(merchants)
    .where(and(eq(merchants.id, merchantId), eq(merchants.clientId, clientId)))
    .limit(1);
  if (!row) throw new RemitError('merchant_not_found', MERCHANT_NOT_FOUND_MESSAGE);
  return row;
}

/** Onboards a merchant for the client (pending until approved) and answers it with its keys. */
export async function portalOnboard(ctx: Ctx, clientId: string, input: OnboardingInput): Promise<MerchantWithKey> {
  const r = await onboardMerchant(ctx, clientId, input);
  return getMerchantForOwner(ctx, clientId, r.merchant_id);
}

/** Approves a merchant of the client (sandbox mock of the acquirer) and answers it with its keys. */
export async function portalApprove(ctx: Ctx, clientId: string, merchantId: string): Promise<MerchantWithKey> {
  await approveMerchant(ctx, clientId, merchantId);
  return getMerchantForOwner(ctx, clientId, merchantId);
}
