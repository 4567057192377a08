import { signal } from '@preact/signals';
import { PAY_CHUNKS } from '@remit/contract/catalogue/pay-chunks';
import { dirOf, intlTag, type Locale } from '@remit/contract/locales';
import { inOrder, type PayCatalogue } from '@remit/contract/translate';
import EN from '@remit/contract/translations/en/pay.json' with { type: 'json' };

export type { Locale };

/** The arguments of each text with placeholders, in the order its English text names them. */
interface Args {
  payTo: [merchant: string];
  cvcHint: [digits: number];
  achAuth: [merchant: string, amount: string, date: string];
  pay: [amount: string];
  authorize: [amount: string];
  badCvc: [digits: number];
  challengeText: [brand: string, last4: string];
  endingIn: [brand: string, last4: string];
  emailed: [email: string];
  addCardTitle: [merchant: string];
  addCardIntro: [name: string, merchant: string];
  savedText: [card: string, merchant: string];
  cardBrand: [brand: string];
}
/** The page's texts (`translations/<tag>/pay.json`), those with placeholders as functions. */
export type Messages = { [K in keyof PayCatalogue]: K extends keyof Args ? (...a: Args[K]) => string : string };

/** A language's texts as the page uses them: a text with placeholders becomes a function of its parts. */
export function messagesOf(c: PayCatalogue): Messages {
  const m: Record<string, unknown> = {};
  for (const k in c) {
    const src = EN[k as keyof PayCatalogue];
    m[k] = src.includes('{') ? inOrder(src, c[k as keyof PayCatalogue]) : c[k as keyof PayCatalogue];
  }
  return m as Messages;
}

const en = messagesOf(EN);

/** English is in the page's script; another language is added once its chunk has loaded. */
const MESSAGES: Partial<Record<Locale, Messages>> = { en };

/** The server renderer has every language in it (ssr.tsx) and adds them here itself. */
export const addMessages = (l: Locale, m: Messages) => void (MESSAGES[l] = m);

/** Fetches a language the page does not hold yet (each its own chunk, so the English page's script stays in its 20 KB budget). The page awaits it before its first render: no English flash. */
export async function loadLocale(l: Locale): Promise<void> {
  const chunk = PAY_CHUNKS[l];
  if (!MESSAGES[l] && chunk) addMessages(l, messagesOf((await chunk()).default));
}

export const locale = signal<Locale>('en');
/** Intl locale tag of the page's locale, for amounts and dates. */
export const intlLocale = () => intlTag(locale.value);
/** Sets `<html lang dir>` for the page's locale (Arabic: right to left). */
export function applyLocale(d: Document): void {
  d.documentElement.lang = locale.value;
  d.documentElement.dir = dirOf(locale.value);
}
/** The locale's messages; English until a language's chunk is loaded. */
export const t = (): Messages => MESSAGES[locale.value] ?? en;
