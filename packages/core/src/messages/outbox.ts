import { messages } from '../db/schema.js';
import { newId } from '../ids.js';
import { outboxWritten, type Writer } from '../operation.js';

export interface OutgoingMessage {
  merchantId: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject?: string;
  bodyText: string;
  bodyHtml?: string;
  payLinkId?: string;
}

/** Queues an SMS or email in the same transaction as the change that sends it (`w.db`). */
export async function queueMessage(w: Writer, m: OutgoingMessage): Promise<string> {
  const id = newId.message();
  await w.db.insert(messages).values({ id, ...m, status: 'pending' });
  outboxWritten(w, 'messages');
  return id;
}
