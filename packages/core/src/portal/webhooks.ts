import { desc, eq } from 'drizzle-orm';
import type { PortalDeliveries, PortalWebhook } from '@remit/contract';
import type { Ctx } from '../context.js';
import { clients, events, webhookDeliveries } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { deliveryView } from '../webhooks/deliveries.js';
import { openPayload, recordEvent } from '../webhooks/outbox.js';
import { inTransaction } from '../operation.js';

/** The portal's webhook page: the URL and signing secret, the deliveries with their bodies, a test event. */

export async function portalWebhook(ctx: Pick<Ctx, 'db' | 'vault'>, clientId: string): Promise<PortalWebhook> {
  const [row] = await ctx.db
    .select({ url: clients.webhookUrl, secret: clients.webhookSecretEnc, disabledAt: clients.webhookDisabledAt })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!row) throw new RemitError('unauthorized', 'Invalid client credentials.');
  return {
    webhook_url: row.url,
    signing_secret: row.secret ? ctx.vault.decrypt(row.secret) : null,
    disabled: row.disabledAt !== null,
  };
}

/**
 * The newest deliveries (at most `limit`) with the body as the receiver gets it: the same JSON the
 * dispatcher signs and POSTs (sealed fields opened: the client is reading its own events).
 */
export async function portalDeliveries(
  ctx: Pick<Ctx, 'db' | 'vault'>,
  clientId: string,
  limit = 50,
): Promise<PortalDeliveries> {
  const rows = await ctx.db
    .select({ d: webhookDeliveries, payload: events.payload, eventCreatedAt: events.createdAt })
    .from(webhookDeliveries)
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.clientId, clientId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  const count = await ctx.db.$count(webhookDeliveries, eq(webhookDeliveries.clientId, clientId));
  return {
    deliveries: rows.map(({ d, payload, eventCreatedAt }) => ({
      ...deliveryView(d),
      request_body: JSON.stringify(
        {
          event_type: d.eventType,
          data: openPayload(payload, ctx.vault),
          id: d.eventId,
          created_at: eventCreatedAt.toISOString(),
        },
        null,
        2,
      ),
    })),
    totalCount: Number(count),
  };
}

/** Records a `webhook.test` event; the dispatcher delivers it like any other. Needs a webhook URL. */
export async function sendTestEvent(
  ctx: Pick<Ctx, 'db' | 'op' | 'outbox'>,
  clientId: string,
): Promise<{ event_id: string }> {
  return inTransaction(ctx, async (tx, ctx) => {
    const [row] = await tx.select({ url: clients.webhookUrl }).from(clients).where(eq(clients.id, clientId)).limit(1);
    if (!row?.url) throw new RemitError('webhook_url_not_set');
    const event_id = await recordEvent(
      { ...ctx, db: tx },
      {
        clientId,
        type: 'webhook.test',
        data: { client_id: clientId, message: 'A test event from the Remit sandbox portal.' },
      },
    );
    return { event_id };
  });
}
