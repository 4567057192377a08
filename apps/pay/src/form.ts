import { useSignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import { announce } from './announce.js';
import { afterPointer } from './pointer.js';

export type Errors<F extends string> = Partial<Record<F, string>>;

/**
 * A form's values and errors. An error shows when the customer leaves a field they typed in
 * (blur), clears as soon as the value is right, and all errors show on submit in the summary.
 */
export function useForm<F extends string>(initial: Record<F, string>, validate: (v: Record<F, string>) => Errors<F>) {
  const values = useSignal(initial);
  const errors = useSignal<Errors<F>>({});
  const summary = useSignal<Array<[F, string]>>([]);
  const dirty = useRef(new Set<F>());
  return {
    values,
    errors,
    summary,
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
}
export type Form<F extends string> = ReturnType<typeof useForm<F>>;
