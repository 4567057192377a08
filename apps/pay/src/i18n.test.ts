import { LOCALES, intlTag, type Locale } from '@remit/contract/locales';
import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format.js';
import { addMessages, loadLocale, locale, t, type Messages } from './i18n.js';

/** Every message as text: functions called with sample arguments. */
const texts = (m: Messages) =>
  Object.fromEntries(
    Object.entries(m).map(([k, v]) => [
      k,
      typeof v === 'function' ? (v as (...a: unknown[]) => string)('«A»', '«B»', '«C»') : v,
    ]),
  ) as Record<string, string>;

/** Words that are the same in a language and in English (names, numbers, loanwords). */
const SAME_AS_ENGLISH: Partial<Record<Locale, string[]>> = {
  es: ['subtotal', 'total'],
  fr: ['total', 'date'],
  'pt-BR': ['subtotal', 'total'],
  de: [],
  nl: [],
  it: [],
};

async function catalogue(l: Locale): Promise<Messages> {
  await loadLocale(l);
  locale.value = l;
  return t();
}

describe('the pay page catalogue', () => {
  it('each of the 12 languages has every message, none empty, each placeholder used, none left in English', async () => {
    const en = texts(await catalogue('en'));
    for (const l of LOCALES.filter((x) => x !== 'en')) {
      const m = texts(await catalogue(l));
      expect(Object.keys(m).sort(), l).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(m)) {
        expect(v.trim(), `${l}.${k}`).not.toBe('');
        // A placeholder English uses is used in the translation too (a name, an amount, a date).
        for (const p of ['«A»', '«B»', '«C»']) if (en[k]!.includes(p)) expect(v, `${l}.${k} ${p}`).toContain(p);
        if (!(SAME_AS_ENGLISH[l] ?? []).includes(k) && !/^[A-Z0-9 /«»·.-]+$/.test(en[k]!) && k !== 'challengeTitle')
          expect(v, `${l}.${k} is still English`).not.toBe(en[k]);
      }
    }
    locale.value = 'en';
  });
  it('a language fetched once is kept; the server adds its own', async () => {
    const fr = await catalogue('fr');
    expect(fr.pay('1 €')).toBe('Payer 1 €');
    addMessages('fr', fr);
    await loadLocale('fr');
    expect(t()).toBe(fr);
    locale.value = 'en';
  });
});

describe('amounts and dates for the locale', () => {
  it('formats cents and dates with Intl in each language', () => {
    expect(formatMoney(123456, 'USD', intlTag('en'))).toBe('$1,234.56');
    expect(formatMoney(123456, 'USD', intlTag('es'))).toMatch(/1,234\.56/);
    expect(formatMoney(123456, 'USD', intlTag('fr'))).toMatch(/1\s234,56\s\$US/);
    expect(formatMoney(123456, 'USD', intlTag('de'))).toMatch(/1\.234,56\s\$/);
    expect(formatMoney(123456, 'USD', intlTag('ja'))).toMatch(/\$1,234\.56/);
    expect(formatMoney(123456, 'USD', intlTag('ar'))).toMatch(/^\u200f1,234\.56\sUS\$$/);
    expect(formatDate('2026-03-05T15:04:00Z', intlTag('ar'))).toMatch(/مارس/);
    expect(formatDate('2026-03-05T15:04:00Z', intlTag('es'))).toMatch(/marzo/);
    expect(formatDate('2026-03-05T15:04:00Z', intlTag('fr'))).toMatch(/mars/);
    expect(formatDate('2026-03-05T15:04:00Z', intlTag('de'))).toMatch(/März/);
    expect(formatDate('2026-03-05T15:04:00Z', intlTag('zh-Hans'))).toMatch(/2026年3月5日/);
  });
});
