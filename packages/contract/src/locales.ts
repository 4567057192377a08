/**
 * The languages Remit speaks to customers, and how one is chosen from what a page or a browser asks
 * for. Shared by the pay page, the widgets, the server's renderer and the messages it sends, so each
 * makes the same choice from the same tags.
 */
import { INTL, LOCALES, RTL } from './catalogue/languages.js';

/** Every language, English (the source language) first: the folders of `translations/` (docs/translations.md). */
export { LOCALES };
/** A language we speak. */
export type Locale = (typeof LOCALES)[number];

/** The tag given to Intl for amounts and dates (the folder's language.json): US conventions for English and Spanish (amounts are in USD). */
export const intlTag = (l: Locale): string => INTL[l];

/** Text direction of a locale (the folder's language.json): Arabic reads right to left. */
export const dirOf = (l: Locale): 'rtl' | 'ltr' => (RTL.includes(l) ? 'rtl' : 'ltr');

/**
 * The locale one BCP 47 tag asks for, or null (malformed, or a language we do not speak).
 * Matched on the language: `fr-CA` → `fr`, any Portuguese → `pt-BR`; Chinese only in Simplified
 * script (`zh`, `zh-CN`, `zh-Hans-SG`; `zh-TW` and `zh-Hant` are not Simplified Chinese).
 */
export function matchLocale(tag: string): Locale | null {
  let loc: Intl.Locale;
  try {
    loc = new Intl.Locale(tag.trim()).maximize();
  } catch {
    return null;
  }
  const lang = loc.language;
  if (lang === 'zh') return loc.script === 'Hans' ? 'zh-Hans' : null;
  if (lang === 'pt') return 'pt-BR';
  return (LOCALES as readonly string[]).includes(lang) ? (lang as Locale) : null;
}

/**
 * The locale to use: the one asked for explicitly (a `locale` option or `?locale=`) when we speak
 * it, else the first of the browser's languages we speak, else English.
 *
 * @example pickLocale('zh-CN', []) // 'zh-Hans'; pickLocale('xx', ['de-AT', 'en']) // 'de'
 */
export function pickLocale(asked: string | null | undefined, languages: readonly string[]): Locale {
  for (const tag of asked ? [asked, ...languages] : languages) {
    const l = matchLocale(tag);
    if (l) return l;
  }
  return 'en';
}

/** An `Accept-Language` header as a list of tags, most wanted first (q=0 dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((l) => l.tag && l.tag !== '*' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}
