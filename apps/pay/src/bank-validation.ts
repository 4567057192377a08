import type { BankInput } from '@remit/contract';
import { abaRoutingValid, accountNumberValid } from '@remit/contract/card-rules';
import type { Errors } from './form.js';
import type { Messages } from './i18n.js';

export type BankField = 'holder' | 'routing' | 'account' | 'confirm' | 'type' | 'accepted';
export type BankValues = Record<BankField, string>;
export const BANK_FIELDS: BankField[] = ['holder', 'routing', 'account', 'confirm', 'type', 'accepted'];
export const emptyBank = (): BankValues => ({
  holder: '',
  routing: '',
  account: '',
  confirm: '',
  type: 'checking',
  accepted: '',
});

export function validateBank(v: BankValues, m: Messages): Errors<BankField> {
  const e: Errors<BankField> = {};
  if (!v.holder.trim()) e.holder = m.reqHolder;
  const routing = v.routing.trim();
  if (!routing) e.routing = m.reqRouting;
  else if (!abaRoutingValid(routing)) e.routing = m.badRouting;
  const account = v.account.trim();
  if (!account) e.account = m.reqAccount;
  else if (!accountNumberValid(account)) e.account = m.badAccount;
  if (!v.confirm.trim()) e.confirm = m.reqAccount;
  else if (v.confirm.trim() !== account) e.confirm = m.mismatchAccount;
  if (v.accepted !== 'yes') e.accepted = m.reqAuth;
  return e;
}

export function toBankInput(v: BankValues): BankInput {
  return {
    holder_name: v.holder.trim(),
    routing_number: v.routing.trim(),
    account_number: v.account.trim(),
    account_type: v.type === 'savings' ? 'savings' : 'checking',
  };
}
