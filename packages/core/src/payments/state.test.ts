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
    ['completed', 'processor_refused', 'failed'],
    ['completed', 'refund_refused', 'completed'],
    ['refunded', 'refund_refused', 'completed'],
    ['voided', 'void_refused', 'completed'],
    ['voided', 'preauth_void_refused', 'authorized'],
  ])('%s --%s--> %s', (from, event, to) => {
    expect(nextState(from, event)).toBe(to);
  });

  it('terminal states allow nothing (returned, declined, failed); fully refunded and voided only the undoing of a refused call', () => {
    for (const s of ['returned', 'declined', 'failed'] as const) expect(TRANSITIONS[s]).toEqual({});
    expect(TRANSITIONS.refunded).toEqual({ refund_refused: 'completed' });
    expect(TRANSITIONS.voided).toEqual({ void_refused: 'completed', preauth_void_refused: 'authorized' });
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
      failed: 8,
    });
    for (const [s, code] of Object.entries(IS_STATUS)) expect(stateOf(code)).toBe(s);
    expect(() => stateOf(9)).toThrow();
  });
});
