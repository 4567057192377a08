import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials } from './clients/credentials.js';
import { updateWebhookUrl } from './clients/webhooks.js';
import { messages } from './db/schema.js';
import { startWebhookDispatcher } from './webhooks/dispatcher.js';
import { recordEvent } from './webhooks/outbox.js';
import {
  eventually,
  insertTestMerchant,
  openTestCore,
  startReceiver,
  type Receiver,
  type TestCore,
} from './webhooks/test-support.js';
import { startMessageDispatcher } from './messages/dispatcher.js';
import { queueMessage } from './messages/outbox.js';
import type { OutboxKind } from './outbox-signal.js';
import { inTransaction } from './operation.js';

/**
 * The dispatchers here poll once a minute, so anything that arrives within seconds was brought by
 * the wake-up on commit, not by the poll.
 */
const SLOW_POLL = 60_000;

let core: TestCore;
let rx: Receiver;
let clientId: string;
let merchantId: string;
const data = { merchant_id: 'm_x', guid: 'txn_x', amount: 1, order_id: 'o', customer_id: 0 };

beforeAll(async () => {
  core = await openTestCore();
  rx = await startReceiver();
  clientId = (await createCredentials(core.ctx)).client_id;
  await updateWebhookUrl(core.ctx, clientId, { webhook_url: rx.url });
  merchantId = await insertTestMerchant(core, clientId);
});
afterAll(async () => {
  await rx.close();
  await core.close();
});

const emit = () => inTransaction(core.ctx, (_tx, c) => recordEvent(c, { clientId, type: 'preauth', data }));
const arrived = (id: string) => rx.received.some((r) => r.headers['webhook-id'] === id);

describe('wake-up on commit', () => {
  it('a committed event reaches the receiver without waiting for the poll', async () => {
    const d = startWebhookDispatcher(core.ctx, { pollMs: SLOW_POLL });
    try {
      await new Promise((r) => setTimeout(r, 200)); // the first pass is over; the loop sleeps a minute
      const started = performance.now();
      const id = await emit();
      await rx.waitFor(() => arrived(id), 5_000);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await d.stop();
    }
  });

  it('with the wake-up off, the same event waits for the poll (the test above can fail)', async () => {
    const d = startWebhookDispatcher(core.ctx, { pollMs: SLOW_POLL, wakeOnCommit: false });
    let id = '';
    try {
      await new Promise((r) => setTimeout(r, 200));
      id = await emit();
      await new Promise((r) => setTimeout(r, 1_500));
      expect(arrived(id)).toBe(false);
    } finally {
      await d.stop();
    }
    // The next dispatcher's first pass sends it: nothing was lost.
    const again = startWebhookDispatcher(core.ctx, { pollMs: SLOW_POLL });
    try {
      await rx.waitFor(() => arrived(id), 5_000);
    } finally {
      await again.stop();
    }
  });

  it('a queued message is sent at once after its commit', async () => {
    const d = startMessageDispatcher(core.ctx, { pollMs: SLOW_POLL });
    try {
      await new Promise((r) => setTimeout(r, 200));
      const id = await inTransaction(core.ctx, (_tx, c) =>
        queueMessage(c, { merchantId, channel: 'sms', recipient: '+14155550123', bodyText: 'hello' }),
      );
      const row = await eventually(async () => {
        const [m] = await core.ctx.db.select().from(messages).where(eq(messages.id, id));
        return m?.status === 'delivered_to_inbox' ? m : null;
      }, 5_000);
      expect(row.status).toBe('delivered_to_inbox');
    } finally {
      await d.stop();
    }
  });

  it('fires after the commit, once per outbox written, and never for a rolled-back transaction', async () => {
    const heard: OutboxKind[] = [];
    const off = core.ctx.outbox.listen((k) => heard.push(k));
    try {
      let firedInside: number | null = null;
      await inTransaction(core.ctx, async (_tx, c) => {
        await recordEvent(c, { clientId, type: 'preauth', data });
        await recordEvent(c, { clientId, type: 'preauth', data });
        await queueMessage(c, { merchantId, channel: 'sms', recipient: '+14155550123', bodyText: 'x' });
        firedInside = heard.length;
      });
      expect(firedInside).toBe(0);
      expect(heard.sort()).toEqual(['messages', 'webhooks']);
      heard.length = 0;
      await expect(
        inTransaction(core.ctx, async (_tx, c) => {
          await recordEvent(c, { clientId, type: 'preauth', data });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(heard).toEqual([]);
    } finally {
      off();
    }
  });
});
