import { describe, expect, it } from 'vitest';
import { acceptedLanguages, dirOf, intlTag, LOCALES, matchLocale, pickLocale } from './locales.js';

describe('matchLocale', () => {
  it('matches a BCP 47 tag on its language, with the regions and scripts we map', () => {
    expect(matchLocale('fr')).toBe('fr');
    expect(matchLocale('fr-CA')).toBe('fr');
    expect(matchLocale('DE-at')).toBe('de');
    expect(matchLocale('pt-BR')).toBe('pt-BR');
    expect(matchLocale('pt-PT')).toBe('pt-BR');
    expect(matchLocale('pt')).toBe('pt-BR');
    expect(matchLocale('zh-Hans')).toBe('zh-Hans');
    expect(matchLocale('zh-CN')).toBe('zh-Hans');
    expect(matchLocale('zh')).toBe('zh-Hans');
    expect(matchLocale('zh-Hans-SG')).toBe('zh-Hans');
    expect(matchLocale('ar-EG')).toBe('ar');
    expect(matchLocale('ja-JP')).toBe('ja');
    expect(matchLocale('sv-FI')).toBe('sv');
  });
  it('speaks no Traditional Chinese, no unknown language, and nothing malformed', () => {
    expect(matchLocale('zh-TW')).toBeNull();
    expect(matchLocale('zh-Hant')).toBeNull();
    expect(matchLocale('xx')).toBeNull();
    expect(matchLocale('ko')).toBeNull();
    expect(matchLocale('')).toBeNull();
    expect(matchLocale('fr_FR!')).toBeNull();
    expect(matchLocale('<script>')).toBeNull();
    expect(matchLocale('a'.repeat(300))).toBeNull();
  });
  it('every locale we list matches itself', () => {
    for (const l of LOCALES) expect(matchLocale(l)).toBe(l);
  });
});

describe('pickLocale', () => {
  it('takes the asked locale first, then the browser languages in order, then English', () => {
    expect(pickLocale('fr', ['de', 'en'])).toBe('fr');
    expect(pickLocale(null, ['ko', 'de-CH', 'en'])).toBe('de');
    expect(pickLocale(undefined, ['es-MX', 'en'])).toBe('es');
    expect(pickLocale('en', ['es'])).toBe('en');
    expect(pickLocale(null, ['ko', 'zh-TW'])).toBe('en');
    expect(pickLocale(null, [])).toBe('en');
  });
  it('an unknown or malformed asked tag falls back to the browser languages', () => {
    expect(pickLocale('xx', ['es'])).toBe('es');
    expect(pickLocale('not a tag', ['ja'])).toBe('ja');
    expect(pickLocale('', ['pl'])).toBe('pl');
    expect(pickLocale('klingon', [])).toBe('en');
  });
});

describe('acceptedLanguages', () => {
  it('orders by q, keeps header order among equals, drops q=0 and *', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(acceptedLanguages('en;q=0.1, ar')).toEqual(['ar', 'en']);
    expect(acceptedLanguages('ja;q=0, sv')).toEqual(['sv']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(pickLocale(null, acceptedLanguages('ko-KR, zh-CN;q=0.9, en;q=0.8'))).toBe('zh-Hans');
  });
});

describe('direction and Intl tags', () => {
  it('Arabic alone reads right to left; every Intl tag is one Intl accepts', () => {
    expect(LOCALES.filter((l) => dirOf(l) === 'rtl')).toEqual(['ar']);
    for (const l of LOCALES) expect(Intl.NumberFormat.supportedLocalesOf([intlTag(l)])).toHaveLength(1);
    expect(new Intl.NumberFormat(intlTag('fr'), { style: 'currency', currency: 'USD' }).format(1234.5)).toMatch(
      /1\s234,50\s\$US/,
    );
    expect(new Intl.NumberFormat(intlTag('de'), { style: 'currency', currency: 'USD' }).format(1234.5)).toMatch(
      /1\.234,50\s\$/,
    );
  });
});
