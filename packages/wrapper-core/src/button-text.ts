import { BUTTONS } from '@remit/contract/catalogue/buttons';
import { matchLocale } from '@remit/contract/locales';

/**
 * A button's text when the page gives none (`translations/<tag>/buttons.json`: 0 is `pay`, 1 is
 * `request`, the catalogue's `BUTTON_KEYS` order), in the `locale` prop's language; English without
 * one, so the server's render and the browser's hydration agree (neither guesses the browser's language).
 */
export const buttonText = (locale: string | undefined, which: 0 | 1): string =>
  BUTTONS[(locale && matchLocale(locale)) || 'en'][which]!;
