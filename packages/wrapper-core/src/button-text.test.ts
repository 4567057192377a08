import { describe, expect, it } from 'vitest';
import { buttonText } from './button-text.js';

describe('buttonText', () => {
  it("follows the locale prop's language; English without one or for a language Remit does not speak", () => {
    expect([buttonText('fr', 'pay'), buttonText('fr-CA', 'request')]).toEqual(['Payer', 'Demander un paiement']);
    expect([buttonText('zh-CN', 'pay'), buttonText('ar', 'request'), buttonText('pt', 'pay')]).toEqual(['付款', 'اطلب الدفع', 'Pagar']);
    expect([buttonText(undefined, 'pay'), buttonText('ko', 'request'), buttonText('not a tag', 'pay')]).toEqual(['Pay', 'Request payment', 'Pay']);
  });
});
