import { useEffect, useState } from 'preact/hooks';

/**
 * A value that the components reading it through `use` render again on: the little of
 * @preact/signals the widgets used, in a few lines (the library took a quarter of the 12 KB chunk).
 */
export interface Signal<T> {
  value: T;
  on(f: () => void): () => void;
}

export function signal<T>(v: T): Signal<T> {
  const subscribers = new Set<() => void>();
  return {
    get value() {
      return v;
    },
    set value(next) {
      v = next;
      for (const f of subscribers) f();
    },
    on(f) {
      subscribers.add(f);
      return () => subscribers.delete(f);
    },
  };
}

/** The signal's value, rendering the component again whenever it changes. */
export function use<T>(s: Signal<T>): T {
  const [, tick] = useState(0);
  const seen = s.value;
  useEffect(() => {
    const again = () => tick((n) => n + 1);
    // Changed between this render and the subscription: render again now.
    if (s.value !== seen) again();
    return s.on(again);
  }, [s]);
  return seen;
}
