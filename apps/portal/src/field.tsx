import type { PartialInputHTMLAttributes } from 'preact';

type InputProps = Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'id' | 'label' | 'type' | 'role' | 'list'>;

export type FieldProps = InputProps & { id: string; label: string; hint?: string; error?: string; type?: 'text' | 'password' | 'email' | 'url' };

/** A labelled input with its hint and error tied to it (`aria-describedby`, `aria-invalid`). */
export function Field({ id, label, hint, error, type = 'text', ...input }: FieldProps) {
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
      {error && (
        <p class="error-message" id={errorId}>
          {error}
        </p>
      )}
      <input
        class="input"
        id={id}
        type={type as 'text'}
        spellcheck={false}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        aria-invalid={error ? 'true' : undefined}
        {...input}
      />
    </div>
  );
}
