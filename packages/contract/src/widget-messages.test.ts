import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.js';
import { fill, WIDGET_EN } from './widget-messages.js';
import { WIDGET_MESSAGES } from './widget-translations.js';

/** Words that are the same in a language and in English. */
const SAME: Record<string, string[]> = { fr: ['date', 'page'], de: ['status'], nl: ['status'] };

describe('the widget catalogue', () => {
  it('each of the 12 languages has every message with the same placeholders, none left in English', () => {
    expect(Object.keys(WIDGET_MESSAGES).sort()).toEqual([...LOCALES].sort());
    for (const l of LOCALES) {
      const m = WIDGET_MESSAGES[l];
      expect(Object.keys(m).sort(), l).toEqual(Object.keys(WIDGET_EN).sort());
      for (const [k, v] of Object.entries(m) as Array<[keyof typeof m, string]>) {
        expect(v.trim(), `${l}.${k}`).not.toBe('');
        expect(v.match(/\{\d\}/g)?.sort(), `${l}.${k} placeholders`).toEqual(WIDGET_EN[k].match(/\{\d\}/g)?.sort());
        if (l !== 'en' && !SAME[l]?.includes(k)) expect(v, `${l}.${k} is still English`).not.toBe(WIDGET_EN[k]);
      }
    }
  });
  it('fill puts the arguments in order, wherever the language puts them', () => {
    expect(fill(WIDGET_MESSAGES.de.pay, '12,50 $')).toBe('12,50 $ bezahlen');
    expect(fill(WIDGET_MESSAGES.ja.sentText, '$15.00', '0123')).toBe('$15.00を支払うためのリンクを記載したSMSを、末尾が0123の電話番号に送信しました。');
  });
});
