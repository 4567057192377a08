import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A capture, cancel or refund whose answer never came (a timeout, the processor's 5xx), inside a
 * money operation whose own rules have already passed: the operation is recorded as done and the
 * call is kept as unconfirmed (`processor_calls`), to be sent again with the same idempotency key
 * by reconciliation: the processor then answers what it did, or does it once. Sent again without
 * that key (a client's retry without `Idempotency-Key` is a new record, so a new key), a refund
 * could be made twice; so the call is never left to the client to retry.
 */
export interface DeferredCall {
  kind: 'capture' | 'cancel' | 'refund';
  gatewayRef: string;
  amountCents: number | null;
  /** A refund's record (the processor keeps it with the refund). */
  reference: string | null;
  /** A capture's application fee (a payment made with a payee), sent again as it was: a key replayed with other parameters is refused. */
  applicationFeeCents?: number | null;
  /** A void's refund gives our fee back (the same reason). */
  returnFee?: boolean;
  idempotencyKey: string;
}

const sink = new AsyncLocalStorage<DeferredCall[]>();

/** Runs `work`, collecting the calls it defers. */
export async function collectDeferred<T>(work: () => Promise<T>): Promise<{ result: T; deferred: DeferredCall[] }> {
  const deferred: DeferredCall[] = [];
  const result = await sink.run(deferred, work);
  return { result, deferred };
}

/** Defers `call` when the caller collects deferred calls (answers true); otherwise the caller throws. */
export function deferCall(call: DeferredCall): boolean {
  const calls = sink.getStore();
  if (!calls) return false;
  calls.push(call);
  return true;
}
