import { describe, expect, it } from 'vitest';
import { DECLINE_CODES, ERROR_CODES, errorCodeSchema, errorMessage, isErrorCode } from './index.js';

describe('the error code catalogue', () => {
  it('gives every code an HTTP error status', () => {
    for (const [code, e] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(e.status, code).toBeGreaterThanOrEqual(400);
      expect(e.status, code).toBeLessThan(600);
    }
  });

  it("keeps the spec's messages", () => {
    expect(errorMessage('link_not_found')).toBe('Link not found');
    expect(errorMessage('amount_mismatch')).toBe('Amount mismatch');
    expect(errorMessage('not_refundable')).toBe('Payment method not found.');
    expect(errorMessage('amount_over_original')).toBe('Amount should not be greater than sales charge amount.');
    expect(errorMessage('amount_over_remaining')).toBe('The amount should not be greater than the remaining amount.');
    expect(errorMessage('already_refunded')).toBe('Refund already done. No refund allowed.');
    expect(errorMessage('transaction_settled')).toBe('The transaction has been settled, a void is not allowed.');
    expect(ERROR_CODES.ach_account_not_found.message).toMatch(/^ACH merchant or account detail not found/);
  });

  it('declines are 402; the schema and guard know every code and only those', () => {
    for (const c of DECLINE_CODES) expect(ERROR_CODES[c].status).toBe(402);
    expect(errorCodeSchema.options.length).toBe(Object.keys(ERROR_CODES).length);
    expect(isErrorCode('link_not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(errorCodeSchema.safeParse('nope').success).toBe(false);
  });
});
