import type { ReadonlySignal } from '@preact/signals-core';
import { useLayoutEffect, useState } from 'preact/hooks';

/**
 * A signal's value in a component, which renders again when it changes. In place of
 * @preact/signals' Preact integration: the same for the few signals here, and about 1 KB gzip of
 * the widget chunk's 12 KB budget spared (the languages' code needed it).
 */
export function useValue<T>(s: ReadonlySignal<T>): T {
  const [, bump] = useState(0);
  useLayoutEffect(() => s.subscribe(() => bump((n) => n + 1)), [s]);
  return s.value;
}
