import type { Queryable } from '../db/connect.js';
import { events } from '../db/schema.js';
import { newId } from '../ids.js';
import type { EventType, EventData } from './catalog.js';

/**
 * Writes an event to the outbox. Call it with the transaction that makes the change, so the
 * event exists exactly when the change does.
 */
export async function recordEvent<T extends EventType>(
  tx: Queryable,
  e: { clientId: string; merchantId?: string | null; type: T; data: EventData[T] },
): Promise<string> {
  const id = newId.event();
  await tx.insert(events).values({
    id,
    clientId: e.clientId,
    merchantId: e.merchantId ?? null,
    eventType: e.type,
    payload: e.data,
  });
  return id;
}
