import { createHash } from 'node:crypto';
import { heldOperationKey } from '../db/held-transaction.js';

/**
 * The processor idempotency key of one call (docs/processors.md). A keyed API request runs in a
 * transaction held until its answer is stored: a crash after the processor moved money but before
 * the commit leaves no row, and the client's retry runs the operation again. So the key comes
 * from the client's (scope, Idempotency-Key) when the request has one, the same on that retry,
 * and the processor answers what it already did. Otherwise from our own record's id: a retry of
 * an unkeyed request is a new operation. `purpose` tells the calls of one operation apart.
 */
export function processorKey(purpose: string, recordId: string): string {
  const operation = heldOperationKey();
  const basis = operation === null ? `record\n${recordId}` : `operation\n${operation}`;
  return `remit_${purpose}_${createHash('sha256').update(basis).digest('hex').slice(0, 48)}`;
}
