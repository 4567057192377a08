import { ErrorSummary } from '@remit/form-kit';
import type { ComponentChildren, TargetedEvent } from 'preact';
import { t } from './i18n.js';
import { scripted } from './typed.js';

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
  const m = t();
  return (
    <form class="pay-form" noValidate onSubmit={submit} aria-busy={busy}>
      <ErrorSummary items={summary} title={m.errorSummary} />
      {children}
      <button class="button" type="submit" disabled={busy || !scripted.value}>
        {busy ? m.processing : submitLabel}
      </button>
    </form>
  );
}
