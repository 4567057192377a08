import { BUTTONS } from '@remit/contract/catalogue/buttons';
import { matchLocale } from '@remit/contract/locales';

/**
 * A button's text when the page gives none (`translations/<tag>/buttons.json`), in the `locale`
 * prop's language; English without one, so the server's render and the browser's hydration agree
 * (neither guesses the browser's language).
 */
export const buttonText = (locale: string | undefined, which: 'pay' | 'request'): string => BUTTONS[(locale && matchLocale(locale)) || 'en'][which];
