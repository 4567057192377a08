import { LOCALES } from '@remit/contract/locales';
import { describe, expect, it } from 'vitest';
import { STRIPE_MESSAGES } from './stripe-messages.js';
import { stripeLocale } from './stripe-js.js';

describe("the Stripe path's messages", () => {
  it('each of the 12 languages says every one, none empty, none left in English', () => {
    const en = STRIPE_MESSAGES.en;
    for (const l of LOCALES) {
      const m = STRIPE_MESSAGES[l];
      expect(Object.keys(m).sort(), l).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(m)) {
        expect(v.trim(), `${l}.${k}`).not.toBe('');
        if (l !== 'en') expect(v, `${l}.${k} is still English`).not.toBe(en[k as keyof typeof en]);
      }
      // What to do next for microdeposits names the 1–2 days in every language.
      expect(m.verifyText, l).toMatch(/1\D{1,3}2/);
    }
  });
  it("names the page's language as Stripe's Elements know it", () => {
    expect(stripeLocale('zh-Hans')).toBe('zh');
    expect(stripeLocale('pt-BR')).toBe('pt-BR');
    expect(stripeLocale('ar')).toBe('ar');
    expect(stripeLocale('en')).toBe('en');
  });
});
