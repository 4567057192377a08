import { describe, expect, it } from 'vitest';
import { escapeHtml, formatDollars, paymentRequestEmail, paymentRequestSms } from './templates.js';

const base = {
  businessName: 'Acme Coffee LLC',
  amountCents: 1250,
  link: 'https://pay.example/pay/ord_abc123',
  orderId: 'INV-7',
};

describe('formatDollars', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [1250, '$12.50'],
    [100000, '$1,000.00'],
    [99999999, '$999,999.99'],
    [-1250, '-$12.50'],
  ])('%i cents → %s', (cents, text) => expect(formatDollars(cents)).toBe(text));
});

describe('paymentRequestSms', () => {
  it('names the business, the amount and the link', () => {
    expect(paymentRequestSms(base)).toBe(
      'Acme Coffee LLC requests a payment of $12.50. Pay securely: https://pay.example/pay/ord_abc123',
    );
  });

  it('greets the customer and says what it is for when given', () => {
    const sms = paymentRequestSms({ ...base, customerName: 'Ada', description: 'Two  lattes\nto go' });
    expect(sms).toBe(
      'Hi Ada, Acme Coffee LLC requests a payment of $12.50 for Two lattes to go. Pay securely: https://pay.example/pay/ord_abc123',
    );
  });

  it('cuts a long description and keeps the link whole', () => {
    const sms = paymentRequestSms({ ...base, description: 'x'.repeat(500) });
    expect(sms.length).toBeLessThan(200);
    expect(sms.endsWith(base.link)).toBe(true);
    expect(sms).toContain('…');
  });

  it('asks to authorize for a preauthorization', () => {
    expect(paymentRequestSms({ ...base, preauth: true })).toContain(
      'requests an authorization of $12.50. Authorize securely:',
    );
  });
});

describe('paymentRequestEmail', () => {
  it('has a subject, a text part and an HTML part with the same facts', () => {
    const m = paymentRequestEmail({ ...base, customerName: 'Ada', description: 'Two lattes' });
    expect(m.subject).toBe('Payment request from Acme Coffee LLC: $12.50');
    for (const part of [m.text, m.html]) {
      expect(part).toContain('Ada');
      expect(part).toContain('Acme Coffee LLC');
      expect(part).toContain('$12.50');
      expect(part).toContain('Two lattes');
      expect(part).toContain('INV-7');
      expect(part).toContain(base.link);
    }
    expect(m.text.startsWith('Hi Ada,\n')).toBe(true);
    expect(m.html).toContain(`href="${base.link}"`);
  });

  it('says Hello without a name and leaves out an absent description', () => {
    const m = paymentRequestEmail({ ...base, orderId: undefined });
    expect(m.text.startsWith('Hello,\n')).toBe(true);
    expect(m.text).not.toContain('For:');
    expect(m.text).not.toContain('Order:');
  });

  it('escapes HTML in every merchant- and client-given field', () => {
    const evil = '<script>alert("x")</script>&\'';
    const m = paymentRequestEmail({
      businessName: `Shop ${evil}`,
      amountCents: 100,
      link: 'https://pay.example/pay/ord_1?a="b"',
      orderId: evil,
      customerName: evil,
      description: evil,
    });
    expect(m.html).not.toContain('<script>');
    expect(m.html).not.toContain('"b"');
    expect(m.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    // The text part stays plain text.
    expect(m.text).toContain(evil);
  });

  it('keeps the subject on one line', () => {
    const m = paymentRequestEmail({ ...base, businessName: 'Acme\r\nBcc: x@evil.example' });
    expect(m.subject).not.toMatch(/[\r\n]/);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters', () =>
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;'));
});
