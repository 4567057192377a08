import type { Queryable } from '../db/connect.js';
import { messages } from '../db/schema.js';
import { newId } from '../ids.js';
import { outboxWritten } from '../outbox-signal.js';

export interface OutgoingMessage {
  merchantId: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject?: string;
  bodyText: string;
  bodyHtml?: string;
  payLinkId?: string;
}

/** Queues an SMS or email in the same transaction as the change that sends it. */
export async function queueMessage(tx: Queryable, m: OutgoingMessage): Promise<string> {
  const id = newId.message();
  await tx.insert(messages).values({ id, ...m, status: 'pending' });
  outboxWritten(tx, 'messages');
  return id;
}
