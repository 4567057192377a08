import type { CardInput } from '@remit/contract';
import type { TargetedEvent } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import { cardLayout } from '@remit/contract/card-rules';
import { formatCardNumber, formatExpiry, onlyDigits } from './card-format.js';
import { CARD_FIELDS, emptyCard, toCardInput, validateCard, type CardField } from './card-validation.js';
import { Field } from '@remit/form-kit';
import { PayForm } from './pay-form.js';
import { useForm } from './form.js';
import { t } from './i18n.js';

export interface CardFormProps {
  submitLabel: string;
  busy: boolean;
  onSubmit: (card: CardInput) => void;
  /** Changes after a decline: the number and security code are cleared for another card. */
  clearSignal?: number;
}

/** Each field's input id: `card-number`, `card-expiry`, … */
const ids = Object.fromEntries(CARD_FIELDS.map((f) => [f, 'card-' + f])) as Record<CardField, string>;

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
  const form = useForm(emptyCard(), (v) => validateCard(v, m), ids);
  const { bind } = form;
  const { values } = form;
  const brand = cardLayout(onlyDigits(values.value.number));

  useLayoutEffect(() => {
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
  const onExpiry = (e: TargetedEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    const deleting = (e as unknown as InputEvent).inputType?.startsWith('delete') ?? false;
    el.value = formatExpiry(el.value, deleting);
    form.set('expiry', el.value);
  };
  const submit = () => {
    if (form.check(CARD_FIELDS)) onSubmit(toCardInput(values.value));
  };

  return (
    <PayForm busy={busy} submitLabel={submitLabel} summary={form.summaryItems()} onSubmit={submit}>
      <Field
        {...bind('number', onNumber)}
        name="cardnumber"
        label={m.cardNumber}
        autocomplete="cc-number"
        inputMode="numeric"
        required
        maxLength={23}
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
          {...bind('expiry', onExpiry)}
          name="exp-date"
          label={m.expiry}
          hint={m.expiryHint}
          autocomplete="cc-exp"
          inputMode="numeric"
          required
          maxLength={7}
          width="short"
        />
        <Field
          {...bind('cvc')}
          name="cvc"
          label={m.cvc}
          hint={m.cvcHint(brand.cvcLength)}
          autocomplete="cc-csc"
          inputMode="numeric"
          required
          maxLength={4}
          width="short"
        />
      </div>
      <Field {...bind('name')} name="ccname" label={m.nameOnCard} autocomplete="cc-name" required />
      <Field
        {...bind('zip')}
        name="postal"
        label={m.zip}
        autocomplete="postal-code"
        inputMode="numeric"
        required
        maxLength={10}
        width="medium"
      />
    </PayForm>
  );
}
