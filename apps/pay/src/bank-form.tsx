import type { BankInput } from '@remit/contract';
import type { TargetedEvent } from 'preact';
import { BANK_FIELDS, emptyBank, toBankInput, validateBank, type BankField } from './bank-validation.js';
import { ErrorSummary } from './error-summary.js';
import { Field } from './field.js';
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
  const form = useForm(emptyBank(), (v) => validateBank(v, m));
  const { values, errors } = form;
  const text = (f: BankField) => (e: TargetedEvent<HTMLInputElement>) => form.set(f, e.currentTarget.value);
  const digits = (f: BankField) => (e: TargetedEvent<HTMLInputElement>) => {
    e.currentTarget.value = e.currentTarget.value.replace(/\D/g, '');
    form.set(f, e.currentTarget.value);
  };
  const submit = (e: TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    if (form.check(BANK_FIELDS)) onSubmit(toBankInput(values.value));
  };
  const authError = errors.value.accepted;

  return (
    <form class="pay-form" noValidate onSubmit={submit} aria-busy={busy}>
      <ErrorSummary items={form.summary.value.map(([f, msg]) => [ids[f], msg])} />
      <Field
        id={ids.holder}
        name="holder"
        label={m.holderName}
        autocomplete="name"
        required
        value={values.value.holder}
        error={errors.value.holder}
        onInput={text('holder')}
        onBlur={() => form.blur('holder')}
      />
      <Field
        id={ids.routing}
        name="routing"
        label={m.routing}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={9}
        width="medium"
        value={values.value.routing}
        error={errors.value.routing}
        onInput={digits('routing')}
        onBlur={() => form.blur('routing')}
      />
      <Field
        id={ids.account}
        name="account"
        label={m.account}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={17}
        value={values.value.account}
        error={errors.value.account}
        onInput={digits('account')}
        onBlur={() => form.blur('account')}
      />
      <Field
        id={ids.confirm}
        name="account-confirm"
        label={m.accountConfirm}
        inputMode="numeric"
        autocomplete="off"
        required
        maxLength={17}
        value={values.value.confirm}
        error={errors.value.confirm}
        onInput={digits('confirm')}
        onBlur={() => form.blur('confirm')}
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
        {authError && (
          <p class="error-message" id="bank-authorization-error">
            {authError}
          </p>
        )}
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
      <button class="button" type="submit" disabled={busy}>
        {busy ? m.processing : submitLabel}
      </button>
    </form>
  );
}
