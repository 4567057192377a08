import type { PortalPayLink, PortalTransactionAction, PortalTransactions } from '@remit/contract';
import type { Ctx } from '../context.js';
import { randomToken } from '../ids.js';
import { createPayLink } from '../links/pay-links.js';
import { createPaymentRequest } from '../links/payment-requests.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { updateAch } from '../payments/ach.js';
import { capturePreauth, voidPreauth } from '../payments/preauth.js';
import { refundTransaction } from '../payments/refunds.js';
import { advanceClock } from '../payments/sandbox-clock.js';
import { settleNow } from '../payments/settlement.js';
import { getTransaction, listTransactions } from '../payments/transactions.js';
import { voidTransaction } from '../payments/voids.js';
import { allowsStatus } from '../payments/state.js';
import { RemitError } from '../errors.js';
import { transactionActions } from './actions.js';

/**
 * The portal's transaction tools: each is the API operation of the same name, called for a merchant
 * of the signed-in client, so the portal and the API cannot disagree on a rule.
 */

const keyOf = (ctx: Pick<Ctx, 'vault'>, m: Merchant) => ctx.vault.decrypt(m.merchantKeyEnc);

export async function portalTransactions(ctx: Ctx, merchant: Merchant): Promise<PortalTransactions> {
  const { data, total } = await listTransactions(ctx, merchant, { merchant_key: keyOf(ctx, merchant), limit: 50 });
  return { transactions: data.map((t) => ({ ...t, actions: transactionActions(t, ctx.env) })), total };
}

/**
 * A pay link for an amount in cents. With an email it is a payment request: the customer is sent
 * the link, and the receipt by email once paid.
 */
export async function portalPayLink(
  ctx: Ctx,
  merchant: Merchant,
  input: { amount: number; email?: string },
): Promise<PortalPayLink> {
  if (input.email) {
    const { data } = await createPaymentRequest(ctx, merchant, {
      amount: input.amount,
      order_id: `portal-${randomToken(12)}`,
      email: input.email,
      preauth: false,
      pass_fee: false,
      require_3ds: false,
      allow_card: true,
      allow_ach: true,
    });
    return { link_id: data.link_id, pay_link: data.pay_link };
  }
  const data = await createPayLink(ctx, merchant, { amount: input.amount, allow_card: true, allow_ach: true });
  return { link_id: data.link_id, pay_link: data.payment_link };
}

/** One action on one transaction; answers the API's message. */
export async function portalTransactionAction(
  ctx: Ctx,
  merchant: Merchant,
  transactionId: string,
  action: PortalTransactionAction,
  amountCents?: number,
): Promise<{ message: string }> {
  const merchant_key = keyOf(ctx, merchant);
  const transaction_id = transactionId;
  switch (action) {
    case 'refund': {
      if (amountCents === undefined)
        throw new RemitError('invalid_request', 'amount is required to refund.', {
          errors: [{ path: 'amount', message: 'is required' }],
        });
      return {
        message: (await refundTransaction(ctx, merchant, { merchant_key, transaction_id, amount: amountCents }))
          .message,
      };
    }
    case 'void': {
      // An open preauthorization is released; a completed sale is voided.
      const detail = await getTransaction(ctx, merchant, transaction_id);
      if (allowsStatus(detail.is_status, 'preauth_void')) {
        await voidPreauth(ctx, merchant, { merchant_key, transaction_id });
        return { message: 'Preauthorization voided.' };
      }
      return { message: (await voidTransaction(ctx, merchant, { merchant_key, transaction_id })).message };
    }
    case 'capture':
      await capturePreauth(ctx, merchant, { merchant_key, transaction_id });
      return { message: 'Preauthorization captured.' };
    case 'ach-approve':
    case 'ach-decline':
      return updateAch(ctx, merchant, {
        merchant_key,
        transaction_id,
        new_status: action === 'ach-approve' ? 'approved' : 'declined',
      });
  }
}

export async function portalAdvanceClock(
  ctx: Ctx,
  merchant: Merchant,
  input: { hours: number },
): Promise<{ message: string }> {
  const r = await advanceClock(ctx, merchant, { merchant_key: keyOf(ctx, merchant), hours: input.hours });
  return { message: `Sandbox clock advanced by ${input.hours} hours; it now reads ${r.clock}.` };
}

export async function portalSettle(ctx: Ctx, merchant: Merchant): Promise<{ message: string }> {
  const r = await settleNow(ctx, merchant);
  return { message: `Settled ${r.settled_count} transaction${r.settled_count === 1 ? '' : 's'}.` };
}
