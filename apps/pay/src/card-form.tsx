import type { CardInput } from '@remit/contract';
import type { TargetedEvent } from 'preact';
import { useEffect } from 'preact/hooks';
import { cardBrand, formatCardNumber, formatExpiry, onlyDigits } from './card-brand.js';
import { CARD_FIELDS, emptyCard, toCardInput, validateCard, type CardField } from './card-validation.js';
import { ErrorSummary } from './error-summary.js';
import { Field } from './field.js';
import { useForm } from './form.js';
import { t } from './i18n.js';

export interface CardFormProps {
  submitLabel: string;
  busy: boolean;
  onSubmit: (card: CardInput) => void;
  /** Changes after a decline: the number and security code are cleared for another card. */
  clearSignal?: number;
}

const ids: Record<CardField, string> = {
  number: 'card-number',
  expiry: 'card-expiry',
  cvc: 'card-cvc',
  name: 'card-name',
  zip: 'card-zip',
};

/** Keeps the caret after the same digit once spaces are inserted or removed. */
function caretAfterDigits(formatted: string, digitsBefore: number): number {
  if (digitsBefore === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!) && ++seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

export function CardForm({ submitLabel, busy, onSubmit, clearSignal }: CardFormProps) {
  const m = t();
  const form = useForm(emptyCard(), (v) => validateCard(v, m));
  const { values, errors } = form;
  const brand = cardBrand(onlyDigits(values.value.number));

  useEffect(() => {
    if (clearSignal) form.clear({ number: '', cvc: '' });
  }, [clearSignal]);

  const onNumber = (e: TargetedEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    const before = onlyDigits(el.value.slice(0, el.selectionStart ?? el.value.length)).length;
    const formatted = formatCardNumber(el.value);
    el.value = formatted;
    if (document.activeElement === el) {
      const at = caretAfterDigits(formatted, before);
      el.setSelectionRange(at, at);
    }
    form.set('number', formatted);
  };
  const onExpiry = (e: TargetedEvent<HTMLInputElement, InputEvent>) => {
    const el = e.currentTarget;
    const deleting = (e as unknown as InputEvent).inputType?.startsWith('delete') ?? false;
    el.value = formatExpiry(el.value, deleting);
    form.set('expiry', el.value);
  };
  const text = (f: CardField) => (e: TargetedEvent<HTMLInputElement>) => form.set(f, e.currentTarget.value);

  const submit = (e: TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    if (form.check(CARD_FIELDS)) onSubmit(toCardInput(values.value));
  };

  return (
    <form class="pay-form" noValidate onSubmit={submit} aria-busy={busy}>
      <ErrorSummary items={form.summary.value.map(([f, msg]) => [ids[f], msg])} />
      <Field
        id={ids.number}
        name="cardnumber"
        label={m.cardNumber}
        autocomplete="cc-number"
        inputMode="numeric"
        required
        maxLength={23}
        value={values.value.number}
        error={errors.value.number}
        onInput={onNumber}
        onBlur={() => form.blur('number')}
        describedBy={brand.name ? 'card-brand' : undefined}
        after={
          brand.name ? (
            <span class="card-brand" id="card-brand">
              <span class="visually-hidden">{m.cardBrand(brand.name)}</span>
              <span aria-hidden="true">{brand.name}</span>
            </span>
          ) : null
        }
      />
      <div class="field-row">
        <Field
          id={ids.expiry}
          name="exp-date"
          label={m.expiry}
          hint={m.expiryHint}
          autocomplete="cc-exp"
          inputMode="numeric"
          required
          maxLength={7}
          width="short"
          value={values.value.expiry}
          error={errors.value.expiry}
          onInput={onExpiry}
          onBlur={() => form.blur('expiry')}
        />
        <Field
          id={ids.cvc}
          name="cvc"
          label={m.cvc}
          hint={m.cvcHint(brand.cvcLength)}
          autocomplete="cc-csc"
          inputMode="numeric"
          required
          maxLength={4}
          width="short"
          value={values.value.cvc}
          error={errors.value.cvc}
          onInput={text('cvc')}
          onBlur={() => form.blur('cvc')}
        />
      </div>
      <Field
        id={ids.name}
        name="ccname"
        label={m.nameOnCard}
        autocomplete="cc-name"
        required
        value={values.value.name}
        error={errors.value.name}
        onInput={text('name')}
        onBlur={() => form.blur('name')}
      />
      <Field
        id={ids.zip}
        name="postal"
        label={m.zip}
        autocomplete="postal-code"
        inputMode="numeric"
        required
        maxLength={10}
        width="medium"
        value={values.value.zip}
        error={errors.value.zip}
        onInput={text('zip')}
        onBlur={() => form.blur('zip')}
      />
      <button class="button" type="submit" disabled={busy}>
        {busy ? m.processing : submitLabel}
      </button>
    </form>
  );
}
