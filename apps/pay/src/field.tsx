import type { ComponentChildren, PartialInputHTMLAttributes, TargetedEvent } from 'preact';
import { ErrorSummary } from './error-summary.js';
import { t } from './i18n.js';
import { scripted } from './typed.js';

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
      <FieldError id={errorId} error={error} />
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

/** A field's error message, tied to its input by `id` (`aria-describedby`); nothing when valid. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p class="error-message" id={id}>
      {error}
    </p>
  ) : null;
}

export interface PayFormProps {
  busy: boolean;
  submitLabel: string;
  /** [input id, message] of every error, after a submit. */
  summary: Array<[string, string]>;
  /** Called on submit when not busy. */
  onSubmit: () => void;
  children: ComponentChildren;
}

/** The card and bank forms' shell: error summary, fields, and the Pay button (busy while paying). */
export function PayForm({ busy, submitLabel, summary, onSubmit, children }: PayFormProps) {
  const submit = (e: TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <form class="pay-form" noValidate onSubmit={submit} aria-busy={busy}>
      <ErrorSummary items={summary} />
      {children}
      <button class="button" type="submit" disabled={busy || !scripted.value}>
        {busy ? t().processing : submitLabel}
      </button>
    </form>
  );
}
