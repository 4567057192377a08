import type { ComponentChildren, PartialInputHTMLAttributes } from 'preact';
import { ErrorMessage } from '../error-message/error-message.js';
import './field.css';

type InputProps = Omit<
  PartialInputHTMLAttributes<HTMLInputElement>,
  'id' | 'label' | 'onBlur' | 'type' | 'role' | 'list'
>;

export type FieldProps = InputProps & {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  type?: 'text' | 'password' | 'email' | 'url';
  onBlur?: () => void;
  /** Shown after the input, on the same line (the pay page's card brand). */
  after?: ComponentChildren;
  /** More ids the input is described by, after the hint and the error. */
  describedBy?: string | undefined;
  width?: 'short' | 'medium';
};

/**
 * A labelled input with its hint and error tied to it (`aria-describedby`, `aria-invalid`), as
 * GOV.UK Frontend's text input. No spellcheck: the fields are numbers, names and addresses.
 */
export function Field({ id, label, hint, error, type = 'text', after, describedBy, width, ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : '';
  const errorId = error ? `${id}-error` : '';
  return (
    <div class={`field${error ? ' field--error' : ''}`}>
      <label class="label" for={id}>
        {label}
      </label>
      {hint && (
        <div class="hint" id={hintId}>
          {hint}
        </div>
      )}
      <ErrorMessage id={errorId} error={error} />
      <div class="input-row">
        <input
          class={`input${width ? ` input--${width}` : ''}`}
          id={id}
          // Preact types each input type's attributes apart; the props here suit all four.
          type={type as 'text'}
          spellcheck={false}
          aria-describedby={[hintId, errorId, describedBy].filter(Boolean).join(' ') || undefined}
          aria-invalid={error ? 'true' : undefined}
          {...input}
        />
        {after}
      </div>
    </div>
  );
}
