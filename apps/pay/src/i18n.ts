import { signal } from '@preact/signals';
import { dirOf, intlTag, type Locale } from '@remit/contract/locales';
import { en, type Messages } from './messages-en.js';

export type { Locale, Messages };

/** English is in the page's script; another language is added once its chunk has loaded. */
const MESSAGES: Partial<Record<Locale, Messages>> = { en };

/** The server renderer has every language in it (ssr.tsx) and adds them here itself. */
export const addMessages = (l: Locale, m: Messages) => void (MESSAGES[l] = m);

type Chunk = () => Promise<{ default: Messages }>;
/** Each language its own chunk, so the English page's script stays in its 20 KB budget. */
const CHUNKS: Record<Exclude<Locale, 'en'>, Chunk> = {
  es: () => import('./messages-es.js'),
  fr: () => import('./messages-fr.js'),
  de: () => import('./messages-de.js'),
  it: () => import('./messages-it.js'),
  'pt-BR': () => import('./messages-pt-BR.js'),
  nl: () => import('./messages-nl.js'),
  pl: () => import('./messages-pl.js'),
  sv: () => import('./messages-sv.js'),
  ja: () => import('./messages-ja.js'),
  'zh-Hans': () => import('./messages-zh-Hans.js'),
  ar: () => import('./messages-ar.js'),
};

/** Fetches a language the page does not hold yet. The page awaits it before its first render: no English flash. */
export async function loadLocale(l: Locale): Promise<void> {
  if (!MESSAGES[l] && l !== 'en') addMessages(l, (await CHUNKS[l]()).default);
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
