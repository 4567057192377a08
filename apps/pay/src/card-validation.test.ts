import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EXPIRY_PAST, EXPIRY_TOO_FAR, expiryProblem } from '@remit/contract/card-rules';
import { emptyCard, validateCard } from './card-validation.js';
import { t } from './i18n.js';

/**
 * The page's expiry check is the server's (`expiryProblem`, months in UTC) whatever the customer's
 * time zone: a browser west of UTC on the evening of a month's last day still answers as the
 * server will. (The page once compared local months and let such a card through.)
 */
describe('card expiry on the page = on the server, in any time zone', () => {
  const m = t();
  const expiryError = (month: number, year: number, now: Date) =>
    validateCard(
      { ...emptyCard(), expiry: `${String(month).padStart(2, '0')} / ${String(year % 100).padStart(2, '0')}` },
      m,
      now,
    ).expiry;
  const expected = (month: number, year: number, now: Date) => {
    const p = expiryProblem(month, year, now);
    return p === EXPIRY_PAST ? m.pastExpiry : p === EXPIRY_TOO_FAR ? m.badExpiry : undefined;
  };

  it.each(['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC'])('%s', (tz) => {
    const was = process.env.TZ;
    process.env.TZ = tz;
    try {
      // 1 December 03:00 UTC is still 30 November in Los Angeles: a card of 11/26 has expired for the server.
      const edge = new Date('2026-12-01T03:00:00Z');
      expect(expiryError(11, 2026, edge)).toBe(m.pastExpiry);
      expect(expiryError(12, 2026, edge)).toBeUndefined();
      fc.assert(
        fc.property(
          fc.date({
            min: new Date('2020-01-01T00:00:00Z'),
            max: new Date('2060-12-31T23:59:59Z'),
            noInvalidDate: true,
          }),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: -2, max: 22 }),
          (now, month, ahead) => {
            const year = now.getUTCFullYear() + ahead;
            fc.pre(year < 2100); // the page takes two-digit years (20YY)
            expect(expiryError(month, year, now)).toBe(expected(month, year, now));
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      process.env.TZ = was;
    }
  });
});
