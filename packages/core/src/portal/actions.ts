import type { PortalTransactionAction, TransactionListItem } from '@remit/contract';
import type { Env } from '../environment.js';
import { allowsStatus, isPaymentType, type PaymentEvent } from '../payments/state.js';

/**
 * What the API accepts for a transaction now, as the portal's buttons. Each action is the event of
 * the state table its operation checks (payments/state.ts), with the refusals its guard adds
 * (payments/rules.ts): payments only; a sale voided only before it settles; capture and release
 * only on the original preauthorization; ACH outcomes only for an ACH debit, in sandbox.
 */
export function transactionActions(
  t: Pick<TransactionListItem, 'type' | 'is_status' | 'payment_method' | 'settled'>,
  env: Env,
): PortalTransactionAction[] {
  if (!isPaymentType(t.type)) return [];
  const allows = (event: PaymentEvent) => allowsStatus(t.is_status, event);
  const preauth = t.type === 'PreAuth';
  const ach = env === 'sandbox' && t.payment_method === 'ach';
  const actions: PortalTransactionAction[] = [];
  if (allows('refund')) actions.push('refund');
  if ((preauth && allows('preauth_void')) || (allows('void') && !t.settled)) actions.push('void');
  if (preauth && allows('preauth_capture')) actions.push('capture');
  if (ach && allows('ach_approve')) actions.push('ach-approve');
  if (ach && allows('ach_decline')) actions.push('ach-decline');
  return actions;
}
