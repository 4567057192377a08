import { describe, expect, it } from 'vitest';
import { IS_STATUS, nextState, stateOf, TRANSITIONS, type PaymentEvent, type TxnState } from './state.js';

describe('the state table', () => {
  it.each<[TxnState, PaymentEvent, TxnState]>([
    ['authorized', 'preauth_update', 'authorized'],
    ['authorized', 'preauth_capture', 'completed'],
    ['authorized', 'preauth_void', 'voided'],
    ['completed', 'void', 'voided'],
    ['completed', 'refund', 'completed'],
    ['completed', 'refund_rest', 'refunded'],
    ['completed', 'refund_as_void', 'voided'],
    ['pending', 'ach_approve', 'completed'],
    ['pending', 'ach_decline', 'returned'],
    ['completed', 'ach_return', 'returned'],
    ['processing', 'processor_approve', 'completed'],
    ['processing', 'processor_preauth', 'authorized'],
    ['processing', 'processor_decline', 'declined'],
  ])('%s --%s--> %s', (from, event, to) => {
    expect(nextState(from, event)).toBe(to);
  });

  it('terminal states allow nothing (fully refunded, voided, returned, declined)', () => {
    for (const s of ['refunded', 'voided', 'returned', 'declined'] as const) expect(TRANSITIONS[s]).toEqual({});
  });

  it('refuses moves not in the table', () => {
    expect(nextState('pending', 'void')).toBeNull();
    expect(nextState('authorized', 'refund')).toBeNull();
    expect(nextState('completed', 'preauth_capture')).toBeNull();
    expect(nextState('completed', 'ach_approve')).toBeNull();
  });

  it('is_status codes of docs/concepts.md round-trip', () => {
    expect(IS_STATUS).toEqual({
      pending: 0,
      authorized: 1,
      completed: 2,
      declined: 3,
      voided: 4,
      refunded: 5,
      returned: 6,
      processing: 7,
    });
    for (const [s, code] of Object.entries(IS_STATUS)) expect(stateOf(code)).toBe(s);
    expect(() => stateOf(9)).toThrow();
  });
});
