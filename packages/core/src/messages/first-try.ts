import { inArray } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { inOpenTransaction } from '../operation.js';
import { messages } from '../db/schema.js';
import type { Delivery } from './delivery.js';
import type { Channel } from './messaging.js';

/** How long an answer waits for a provider's first try before saying the message is queued. */
export const FIRST_TRY_WAIT_MS = 5_000;
const POLL_MS = 20;

export interface QueuedMessage {
  id: string;
  channel: Channel;
}

export type { Delivery } from './delivery.js';

/**
 * Waits (up to `waitMs`) for the dispatcher's first try of each message on a channel with a real
 * provider, so that an answer never says "sent" of a message that was not. Messages the sandbox
 * inbox keeps count as sent without waiting. Reads the rows, so the sender may be another process.
 */
export async function firstTries(
  ctx: Pick<Ctx, 'db' | 'messaging' | 'op'>,
  queued: QueuedMessage[],
  waitMs = FIRST_TRY_WAIT_MS,
): Promise<Delivery> {
  const providers = ctx.messaging.providers ?? [];
  const watched = queued.filter((m) => providers.includes(m.channel));
  const out: Delivery = {
    sent: queued.filter((m) => !providers.includes(m.channel)).map((m) => m.channel),
    queued: [],
    failed: [],
  };
  // In an operation whose transaction is still open (a keyed request's, held until its answer is
  // stored), the messages are not committed yet: no sender can see them, so they are reported queued at once.
  if (watched.length === 0) return out;
  if (inOpenTransaction(ctx.op)) {
    out.queued.push(...watched.map((m) => ({ channel: m.channel, error: null })));
    return out;
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await ctx.db
      .select({ id: messages.id, status: messages.status, lastError: messages.lastError })
      .from(messages)
      .where(
        inArray(
          messages.id,
          watched.map((m) => m.id),
        ),
      );
    const tried = rows.every((r) => r.status !== 'pending');
    if (tried || Date.now() >= deadline) {
      for (const m of watched) {
        const r = rows.find((x) => x.id === m.id);
        if (r?.status === 'sent') out.sent.push(m.channel);
        else if (r?.status === 'failed') out.failed.push({ channel: m.channel, error: r.lastError ?? 'not sent' });
        else out.queued.push({ channel: m.channel, error: r?.lastError ?? null });
      }
      return out;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
