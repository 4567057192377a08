import { LOCALES } from '@remit/contract/locales';
import { describe, expect, it } from 'vitest';
import { STRIPE } from '@remit/contract/catalogue/stripe';
import { stripeLocale } from './stripe-js.js';

describe("the Stripe path's messages", () => {
  // Every key in every language: the catalogue's own test (packages/contract/src/translations.test.ts).
  it('names the 1–2 days of microdeposits in every language', () => {
    for (const l of LOCALES) expect(STRIPE[l].verifyText, l).toMatch(/1\D{1,3}2/);
  });
  it("names the page's language as Stripe's Elements know it", () => {
    expect(stripeLocale('zh-Hans')).toBe('zh');
    expect(stripeLocale('pt-BR')).toBe('pt-BR');
    expect(stripeLocale('ar')).toBe('ar');
    expect(stripeLocale('en')).toBe('en');
  });
});
