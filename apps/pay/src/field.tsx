import type { ComponentChildren, PartialInputHTMLAttributes } from 'preact';

type InputProps = Omit<PartialInput, 'id' | 'label' | 'onBlur' | 'type' | 'role' | 'list'>;
type PartialInput = PartialInputHTMLAttributes<HTMLInputElement>;

export type FieldProps = InputProps & {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  onBlur?: () => void;
  /** Shown after the input (the card brand). */
  after?: ComponentChildren;
  /** Extra ids the input is described by. */
  describedBy?: string;
  width?: 'short' | 'medium';
};

/** A labelled text input with its hint and error tied to it (GOV.UK pattern). */
export function Field({ id, label, hint, error, after, describedBy, width, onBlur, ...input }: FieldProps) {
  const hintId = hint ? `${id}-hint` : '';
  const errorId = error ? `${id}-error` : '';
  const described = [hintId, errorId, describedBy].filter(Boolean).join(' ') || undefined;
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
      {error && (
        <p class="error-message" id={errorId}>
          {error}
        </p>
      )}
      <div class="input-row">
        <input
          class={`input${width ? ` input--${width}` : ''}`}
          id={id}
          type="text"
          spellcheck={false}
          aria-describedby={described}
          aria-invalid={error ? 'true' : undefined}
          onBlur={onBlur}
          {...input}
        />
        {after}
      </div>
    </div>
  );
}
