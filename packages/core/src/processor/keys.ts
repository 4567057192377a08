import { createHash } from 'node:crypto';

/**
 * The processor idempotency key of one call (docs/processors.md). A keyed API request runs in a
 * transaction held until its answer is stored: a crash after the processor moved money but before
 * the commit leaves no row, and the client's retry runs the operation again. So the key comes
 * from `operationKey`, the client's (scope, Idempotency-Key) that the request's operation carries
 * (`ctx.op.key`), the same on that retry, and the processor answers what it already did. Without
 * one, from our own record's id: a retry of an unkeyed request is a new operation. `purpose`
 * tells the calls of one operation apart. The answer depends on these arguments alone.
 */
export function processorKey(operationKey: string | null, purpose: string, recordId: string): string {
  const basis = operationKey === null ? `record\n${recordId}` : `operation\n${operationKey}`;
  return `remit_${purpose}_${createHash('sha256').update(basis).digest('hex').slice(0, 48)}`;
}
