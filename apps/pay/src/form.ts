import { useSignal } from '@preact/signals';
import type { TargetedEvent } from 'preact';
import { useMemo, useRef } from 'preact/hooks';
import { announce } from '@remit/form-kit';
import { afterPointer } from './pointer.js';
import { takeTyped } from './typed.js';

export type Errors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's values and errors. An error shows when the customer leaves a field they typed in
 * (blur), clears as soon as the value is right, and all errors show on submit in the summary.
 */
export function useForm<F extends string>(
  initial: Record<F, string>,
  validate: (v: Record<F, string>) => Errors<F>,
  /** Each field's input id (the error summary links to it). */
  ids: Record<F, string>,
  /** Where each field's value was typed before hydration (see typed.ts); the ids unless told. */
  keys: Record<F, string> = ids,
) {
  const dirty = useRef(new Set<F>());
  const start = useMemo(() => {
    const v = { ...initial };
    for (const f of Object.keys(keys) as F[]) {
      const typed = takeTyped(keys[f]);
      if (typed !== undefined && typed !== v[f]) {
        v[f] = typed;
        dirty.current.add(f);
      }
    }
    return v;
  }, []);
  const values = useSignal(start);
  const errors = useSignal<Errors<F>>({});
  const summary = useSignal<Array<[F, string]>>([]);
  const form = {
    values,
    errors,
    summary,
    /** The summary's entries as [input id, message]. */
    summaryItems: (): Array<[string, string]> => summary.value.map(([f, msg]) => [ids[f], msg]),
    /**
     * A text field's wiring for `<Field>`: id, value, error, blur check, and input (the typed value,
     * through `clean` when given, e.g. digits only).
     */
    bind(f: F, onInput?: (e: TargetedEvent<HTMLInputElement>) => void, clean?: (v: string) => string) {
      return {
        id: ids[f],
        value: values.value[f],
        error: errors.value[f],
        onBlur: () => form.blur(f),
        onInput:
          onInput ??
          ((e: TargetedEvent<HTMLInputElement>) => {
            const el = e.currentTarget;
            if (clean) el.value = clean(el.value);
            form.set(f, el.value);
          }),
      };
    },
    set(f: F, v: string) {
      values.value = { ...values.value, [f]: v };
      dirty.current.add(f);
      if (errors.value[f] && !validate(values.value)[f]) errors.value = { ...errors.value, [f]: undefined };
    },
    blur(f: F) {
      if (!dirty.current.has(f)) return;
      afterPointer(() => {
        const e = validate(values.value)[f];
        if (e === errors.value[f]) return;
        errors.value = { ...errors.value, [f]: e };
        if (e) announce(e);
      });
    },
    /** true when valid; otherwise every error shows and the summary lists them in `order`. */
    check(order: F[]): boolean {
      const all = validate(values.value);
      errors.value = all;
      summary.value = order.filter((f) => all[f]).map((f) => [f, all[f]!] as [F, string]);
      return summary.value.length === 0;
    },
    /** Replaces some values (after a decline: a fresh card number and code) without errors. */
    clear(fields: Partial<Record<F, string>>) {
      values.value = { ...values.value, ...fields };
      for (const f of Object.keys(fields) as F[]) dirty.current.delete(f);
      errors.value = {};
      summary.value = [];
    },
  };
  return form;
}
export type Form<F extends string> = ReturnType<typeof useForm<F>>;
