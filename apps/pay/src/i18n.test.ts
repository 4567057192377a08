import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format.js';
import { pickLocale } from './i18n.js';

describe('pickLocale', () => {
  it('follows the browser languages, the ?locale= override winning', () => {
    expect(pickLocale('', ['es-MX', 'en'])).toBe('es');
    expect(pickLocale('', ['fr-FR', 'en-GB'])).toBe('en');
    expect(pickLocale('', ['de'])).toBe('en');
    expect(pickLocale('?locale=es', ['en-US'])).toBe('es');
    expect(pickLocale('?locale=en', ['es'])).toBe('en');
    expect(pickLocale('?locale=xx', ['es'])).toBe('es');
  });
  it('formats cents and dates for the locale', () => {
    expect(formatMoney(123456, 'USD', 'en-US')).toBe('$1,234.56');
    expect(formatMoney(123456, 'USD', 'es-US')).toMatch(/1,234\.56/);
    expect(formatDate('2026-03-05T15:04:00Z', 'es-US')).toMatch(/marzo/);
  });
});
