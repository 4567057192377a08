import { describe, expect, it } from 'vitest';
import { buttonText } from './button-text.js';

describe('buttonText', () => {
  it("follows the locale prop's language; English without one or for a language Remit does not speak", () => {
    expect([buttonText('fr', 0), buttonText('fr-CA', 1)]).toEqual(['Payer', 'Demander un paiement']);
    expect([buttonText('zh-CN', 0), buttonText('ar', 1), buttonText('pt', 0)]).toEqual(['付款', 'اطلب الدفع', 'Pagar']);
    expect([buttonText(undefined, 0), buttonText('ko', 1), buttonText('not a tag', 0)]).toEqual([
      'Pay',
      'Request payment',
      'Pay',
    ]);
  });
});
