import { signal } from '@preact/signals';

/**
 * What the customer typed into the server-rendered form before the script hydrated it. Hydration
 * keeps the DOM's values, but the next render would write the form's state over them: the forms
 * start from these values instead, so no keystroke is lost.
 */
const typed = new Map<string, string>();

/**
 * false in the server's markup and until hydration is done: the Pay button stays disabled, so an
 * Enter or a click before the script runs cannot submit the bare form (a GET with the card number
 * in the address). true by default for pages rendered by the script alone.
 */
export const scripted = signal(true);

/** Text inputs by id, checked checkboxes by id (`yes`), a checked radio's value by its name. */
export function captureTyped(root: ParentNode): void {
  for (const el of root.querySelectorAll('input')) {
    if (el.type === 'radio') {
      if (el.checked) typed.set(el.name, el.value);
    } else if (el.type === 'checkbox') {
      if (el.checked) typed.set(el.id, 'yes');
    } else if (el.value) typed.set(el.id, el.value);
  }
}

/** The typed value under a key, once (a form mounted later starts empty). */
export function takeTyped(key: string): string | undefined {
  const v = typed.get(key);
  typed.delete(key);
  return v;
}
