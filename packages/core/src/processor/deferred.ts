/**
 * A capture, cancel or refund whose answer never came (a timeout, the processor's 5xx), inside a
 * money operation whose own rules have already passed: the operation is recorded as done and the
 * call is kept as unconfirmed (`processor_calls`), to be sent again with the same idempotency key
 * by reconciliation: the processor then answers what it did, or does it once. Sent again without
 * that key (a client's retry without `Idempotency-Key` is a new record, so a new key), a refund
 * could be made twice; so the call is never left to the client to retry.
 *
 * The operation collects them in its scope (`ctx.op.deferred`, operation.ts) and hands that list to
 * the processor call (`deferTo`); with no list given, such a call fails.
 */
export interface DeferredCall {
  kind: 'capture' | 'cancel' | 'refund';
  gatewayRef: string;
  amountCents: number | null;
  /**
   * Our record the call is for: a refund's or void's record (the processor keeps a refund's with it),
   * a capture's preauthorization. Null only in calls deferred before it was kept (a cancel, a capture).
   */
  reference: string | null;
  /** A capture's application fee (a payment made with a payee), sent again as it was: a key replayed with other parameters is refused. */
  applicationFeeCents?: number | null;
  /** A void's refund gives our fee back (the same reason). */
  returnFee?: boolean;
  idempotencyKey: string;
}

/** Defers `call` into `to`, the operation's list, when it has one (answers true); otherwise the caller throws. */
export function deferCall(to: DeferredCall[] | null | undefined, call: DeferredCall): boolean {
  if (!to) return false;
  to.push(call);
  return true;
}

/** What the operator and the client call a deferred call: a void is a cancel, or a refund giving our fee back. */
export type RefusableOperation = 'refund' | 'void' | 'capture';

export const REFUSABLE_OPERATIONS: readonly RefusableOperation[] = ['refund', 'void', 'capture'];

export function operationOf(call: { kind: string; returnFee?: boolean | null }): RefusableOperation {
  if (call.kind === 'capture') return 'capture';
  return call.kind === 'cancel' || call.returnFee ? 'void' : 'refund';
}
