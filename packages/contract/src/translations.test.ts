import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script, no types
import { generate } from '../../../scripts/translations.mjs';
import { LOCALES } from './locales.js';
import { fill, inOrder, placeholders } from './translate.js';

const root = new URL('../translations/', import.meta.url).pathname;
const SURFACES = ['language', 'pay', 'stripe', 'widgets', 'messages', 'buttons'];
const read = (l: string, f: string): Record<string, string> =>
  JSON.parse(readFileSync(join(root, l, `${f}.json`), 'utf8'));
const folders = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

describe('the translation catalogue', () => {
  it('has a folder per language, each with every file of English', () => {
    expect(folders.sort()).toEqual([...LOCALES].sort());
    for (const l of folders)
      expect(readdirSync(join(root, l)).sort(), l).toEqual(SURFACES.map((s) => `${s}.json`).sort());
  });

  it('every language has every key of English, none empty, with the same placeholders', () => {
    for (const surface of SURFACES.filter((s) => s !== 'language')) {
      const en = read('en', surface);
      for (const l of folders) {
        const texts = read(l, surface);
        expect(Object.keys(texts).sort(), `${l}/${surface}.json keys`).toEqual(Object.keys(en).sort());
        for (const [k, v] of Object.entries(texts)) {
          expect(typeof v === 'string' && v.trim() !== '', `${l}/${surface}.json ${k} is empty`).toBe(true);
          expect(placeholders(v).sort(), `${l}/${surface}.json ${k} placeholders`).toEqual(placeholders(en[k]!).sort());
        }
      }
    }
  });

  it('names each language an Intl tag and a direction', () => {
    for (const l of folders) {
      const { intl, dir } = read(l, 'language');
      expect(Intl.NumberFormat.supportedLocalesOf([intl!]), l).toHaveLength(1);
      expect(['ltr', 'rtl'], l).toContain(dir);
    }
  });

  it('src/catalogue/ is what scripts/translations.mjs writes from the folders (run it after editing one)', () => {
    const files = generate() as Record<string, string>;
    for (const [name, text] of Object.entries(files))
      expect(readFileSync(new URL(`./catalogue/${name}`, import.meta.url), 'utf8'), name).toBe(text);
  });

  it('fills placeholders by name, or in the order English names them wherever a language puts them', () => {
    expect(fill('{amount} bezahlen', { amount: '12,50 $' })).toBe('12,50 $ bezahlen');
    expect(fill('Hi {name}', {})).toBe('Hi {name}');
    const en = read('en', 'widgets').sentText!;
    expect(inOrder(en, read('ja', 'widgets').sentText!)('$15.00', '0123')).toBe(
      '$15.00を支払うためのリンクを記載したSMSを、末尾が0123の電話番号に送信しました。',
    );
    expect(placeholders(read('en', 'pay').achAuth!)).toEqual(['merchant', 'amount', 'date']);
  });
});
