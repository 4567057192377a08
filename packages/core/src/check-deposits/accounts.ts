import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import type { Merchant } from '../merchants/merchant-key.js';

/**
 * The merchant's account at the configured check-deposit provider, or null: none configured, none
 * recorded, or one recorded with another provider (the made-up accounts of the simulator above all).
 */
export function checkDepositAccount(
  ctx: Pick<Ctx, 'checkDeposits'>,
  merchant: Pick<Merchant, 'achProviderId' | 'checkDepositProvider'>,
): string | null {
  const provider = ctx.checkDeposits;
  if (!provider || !merchant.achProviderId || merchant.checkDepositProvider !== provider.name) return null;
  return merchant.achProviderId;
}

const ACCOUNT = /^[\x21-\x7e]{1,200}$/;

/**
 * The operator records a merchant's account at the configured provider (`remit merchants
 * check-deposit-account`), as the vendor opened it; it replaces any earlier one.
 */
export async function recordCheckDepositAccount(
  ctx: Pick<Ctx, 'db' | 'checkDeposits'>,
  merchantId: string,
  account: string,
): Promise<{ merchant_id: string; provider: string; account: string; previous: string | null }> {
  const provider = ctx.checkDeposits;
  if (!provider) {
    throw new RemitError(
      'invalid_request',
      'No check-deposit provider is configured (REMIT_CHECK_DEPOSITS): an account is recorded with the provider that holds it.',
    );
  }
  if (!ACCOUNT.test(account)) {
    throw new RemitError(
      'invalid_request',
      "The account must be the provider's account id: 1 to 200 printable characters, no spaces.",
    );
  }
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ account: merchants.achProviderId, provider: merchants.checkDepositProvider })
      .from(merchants)
      .where(eq(merchants.id, merchantId))
      .for('update');
    if (!row) throw new RemitError('merchant_not_found', `No merchant has the id ${merchantId}.`);
    await tx
      .update(merchants)
      .set({ achProviderId: account, checkDepositProvider: provider.name })
      .where(eq(merchants.id, merchantId));
    const previous = row.account && row.provider ? `${row.provider}:${row.account}` : null;
    return { merchant_id: merchantId, provider: provider.name, account, previous };
  });
}
