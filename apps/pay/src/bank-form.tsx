import type { BankInput } from '@remit/contract';
import { BANK_FIELDS, emptyBank, toBankInput, validateBank, type BankField } from './bank-validation.js';
import { ErrorMessage, Field } from '@remit/form-kit';
import { onlyDigits } from './card-format.js';
import { PayForm } from './pay-form.js';
import { useForm } from './form.js';
import { t } from './i18n.js';

export interface BankFormProps {
  submitLabel: string;
  busy: boolean;
  merchantName: string;
  /** The amount as shown, for the authorization text. */
  amountText: string;
  dateText: string;
  onSubmit: (bank: BankInput) => void;
}

const ids: Record<BankField, string> = {
  holder: 'bank-holder',
  routing: 'bank-routing',
  account: 'bank-account',
  confirm: 'bank-account-confirm',
  type: 'bank-type-checking',
  accepted: 'bank-authorization',
};

export function BankForm({ submitLabel, busy, merchantName, amountText, dateText, onSubmit }: BankFormProps) {
  const m = t();
  const form = useForm(emptyBank(), (v) => validateBank(v, m), ids, { ...ids, type: 'account-type' });
  const { bind } = form;
  const { values, errors } = form;
  const submit = () => {
    if (form.check(BANK_FIELDS)) onSubmit(toBankInput(values.value));
  };
  const authError = errors.value.accepted;

  return (
    <PayForm busy={busy} submitLabel={submitLabel} summary={form.summaryItems()} onSubmit={submit}>
      <Field {...bind('holder')} name="holder" label={m.holderName} autocomplete="name" required />
      <Field
        {...bind('routing', undefined, onlyDigits)}
        name="routing"
        label={m.routing}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={9}
        width="medium"
      />
      <Field
        {...bind('account', undefined, onlyDigits)}
        name="account"
        label={m.account}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={17}
      />
      <Field
        {...bind('confirm', undefined, onlyDigits)}
        name="account-confirm"
        label={m.accountConfirm}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={17}
      />
      <fieldset class="fieldset">
        <legend class="label">{m.accountType}</legend>
        <div class="choices choices--inline">
          {(['checking', 'savings'] as const).map((type) => (
            <label class="choice" key={type}>
              <input
                type="radio"
                name="account-type"
                id={`bank-type-${type}`}
                value={type}
                checked={values.value.type === type}
                onChange={() => form.set('type', type)}
              />
              <span>{m[type]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div class={`field authorization${authError ? ' field--error' : ''}`}>
        <h3 class="authorization__title" id="ach-auth-title">
          {m.achAuthTitle}
        </h3>
        <p class="authorization__text" id="ach-auth-text">
          {m.achAuth(merchantName, amountText, dateText)}
        </p>
        <ErrorMessage id="bank-authorization-error" error={authError} />
        <label class="choice">
          <input
            type="checkbox"
            id={ids.accepted}
            name="authorization"
            checked={values.value.accepted === 'yes'}
            aria-describedby={`ach-auth-text${authError ? ' bank-authorization-error' : ''}`}
            aria-invalid={authError ? 'true' : undefined}
            onChange={(e) => form.set('accepted', e.currentTarget.checked ? 'yes' : '')}
          />
          <span>{m.achAccept}</span>
        </label>
      </div>
    </PayForm>
  );
}
