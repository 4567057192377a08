import { describe, expect, it } from 'vitest';
import { processorKey } from './keys.js';
import { deferCall, type DeferredCall } from './deferred.js';

// Pure functions: one pass is enough (no database involved).
describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('the operation scope as arguments', () => {
  it("processorKey: a keyed operation's key comes from its operation key alone, the same on the client's retry", () => {
    const op = JSON.stringify(['cli_1', 'key-1']);
    const first = processorKey(op, 'refund', 'txn_first');
    // The retry makes another record; the processor must still see the same key.
    expect(processorKey(op, 'refund', 'txn_retry')).toBe(first);
    expect(first).toMatch(/^remit_refund_[0-9a-f]{48}$/);
    // Another client's same Idempotency-Key, or another key, is another operation.
    expect(processorKey(JSON.stringify(['cli_2', 'key-1']), 'refund', 'txn_first')).not.toBe(first);
    expect(processorKey(JSON.stringify(['cli_1', 'key-2']), 'refund', 'txn_first')).not.toBe(first);
    // The calls of one operation are told apart by purpose.
    expect(processorKey(op, 'capture', 'txn_first')).not.toBe(first);
    expect(processorKey(op, 'capture', 'txn_first')).toMatch(/^remit_capture_/);
  });

  it('processorKey: without an operation key, the record decides (a retry without a key is a new operation)', () => {
    expect(processorKey(null, 'void', 'txn_a')).toBe(processorKey(null, 'void', 'txn_a'));
    expect(processorKey(null, 'void', 'txn_a')).not.toBe(processorKey(null, 'void', 'txn_b'));
    // An operation key never collides with a record id that happens to spell it.
    expect(processorKey('txn_a', 'void', 'x')).not.toBe(processorKey(null, 'void', 'txn_a'));
  });

  it('deferCall: kept only in the list it is given; with none, the caller fails the call', () => {
    const call: DeferredCall = {
      kind: 'refund',
      gatewayRef: 'pi_1',
      amountCents: 100,
      reference: 'txn_r',
      idempotencyKey: 'remit_refund_x',
    };
    const list: DeferredCall[] = [];
    expect(deferCall(list, call)).toBe(true);
    expect(list).toEqual([call]);
    expect(deferCall(null, call)).toBe(false);
    expect(deferCall(undefined, call)).toBe(false);
  });
});
