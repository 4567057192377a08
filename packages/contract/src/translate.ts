import type enButtons from '../translations/en/buttons.json';
import type enMessages from '../translations/en/messages.json';
import type enPay from '../translations/en/pay.json';
import type enStripe from '../translations/en/stripe.json';
import type enWidgets from '../translations/en/widgets.json';

/**
 * The translation catalogue: a folder per language in `translations/<tag>/`, one JSON file per
 * surface, each a flat map of key to text with named placeholders (`"Pay {amount}"`). English is
 * the source language: its files name every key the others must have (docs/translations.md).
 */
type Texts<T> = { [K in keyof T]: string };
/** The pay page and the add-card page. */
export type PayCatalogue = Texts<typeof enPay>;
/** What only the pay page's Stripe path says. */
export type StripeCatalogue = Texts<typeof enStripe>;
/** The widgets: pay modal, request-payment confirmation, transactions table. */
export type WidgetsCatalogue = Texts<typeof enWidgets>;
/** The messages a customer receives: payment request SMS and email, receipt, card request. */
export type MessagesCatalogue = Texts<typeof enMessages>;
/** The React and Vue components' default button text. */
export type ButtonsCatalogue = Texts<typeof enButtons>;

/** Fills the `{name}` placeholders of a text (one not given stays as written). */
export const fill = (text: string, values: Record<string, string | number | undefined>): string =>
  text.replace(/\{(\w+)\}/g, (p, k: string) => (values[k] === undefined ? p : String(values[k])));

/** A text's placeholders, each once, in the order they first appear. */
export const placeholders = (text: string): string[] => [
  ...new Set(Array.from(text.matchAll(/\{(\w+)\}/g), (m) => m[1]!)),
];

/**
 * A text as a function of its placeholders' values given in order: the order they first appear in
 * the source language's text of the same key, so a translation may put them wherever its language does.
 */
export const inOrder = (source: string, text: string) => {
  const names: string[] = source.match(/\{\w+\}/g) ?? [];
  return (...values: Array<string | number>): string =>
    text.replace(/\{\w+\}/g, (p) => `${values[names.indexOf(p)] ?? p}`);
};
