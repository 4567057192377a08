import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  listDeliveriesQuery,
  type DeliveryAttempt,
  type DeliveryPage,
  type DeliveryView,
  type ListDeliveriesQuery,
} from '@remit/contract';
import type { Queryable } from '../db/connect.js';
import { clients, webhookDeliveries } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import { inTransaction, outboxWritten } from '../operation.js';
import type { Ctx } from '../context.js';
import { responseExcerpt } from './response-excerpt.js';

/** Seconds after the 1st … 7th failed try; after the 8th try the delivery has failed for good. */
export const RETRY_SCHEDULE_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/**
 * Delay before the next try after `tries` failed ones, or null when retries are used up.
 * Jitter of ±20% spreads retries of many deliveries that failed together; `scale` shrinks the
 * whole schedule (REMIT_WEBHOOK_RETRY_SCALE, e.g. 0.001 in tests).
 */
export function retryDelayMs(tries: number, scale = 1, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_SECONDS[tries - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * 1000 * scale * (0.8 + 0.4 * random())));
}

/** Parses list parameters from the query string and a GET JSON body together (body wins). */
export function parseListDeliveries(input: unknown): ListDeliveriesQuery {
  const r = listDeliveriesQuery.safeParse(input ?? {});
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message }));
  throw invalid(
    'invalid_request',
    `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}

/** The dispatcher records attempts in the contract's shape. */
export type { DeliveryAttempt };

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export function deliveryView(r: DeliveryRow): DeliveryView {
  const waiting = r.status === 'pending' || r.status === 'retrying';
  return {
    id: r.id,
    event_id: r.eventId,
    event_type: r.eventType,
    url: r.url,
    status: r.status as DeliveryView['status'],
    // Attempts recorded before excerpts were kept may hold more of an answer than the log shows.
    attempts: (r.attempts as DeliveryAttempt[]).map((a) =>
      a.response_body ? { ...a, response_body: responseExcerpt(a.response_body) } : a,
    ),
    next_attempt_at: waiting ? r.nextAttemptAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
    delivered_at: r.deliveredAt ? r.deliveredAt.toISOString() : null,
  };
}

/** The client's deliveries, newest first. */
export async function listDeliveries(db: Queryable, clientId: string, q: ListDeliveriesQuery): Promise<DeliveryPage> {
  const page = q.page ?? 0;
  const limit = q.limit ?? 20;
  const where: SQL[] = [eq(webhookDeliveries.clientId, clientId)];
  if (q.event_type) where.push(eq(webhookDeliveries.eventType, q.event_type));
  if (q.status) where.push(eq(webhookDeliveries.status, q.status));
  const cond = and(...where);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(cond)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(page * limit),
    db.select({ n: count() }).from(webhookDeliveries).where(cond),
  ]);
  const totalCount = Number(total?.n ?? 0);
  return { deliveries: rows.map(deliveryView), page, limit, totalCount, totalPage: Math.ceil(totalCount / limit) };
}

/**
 * Makes a delivery due now, whatever its state (a delivered one is sent again: a manual replay).
 * The retry schedule starts over. Another client's id is the same 404 as an unknown one. While
 * a 410 keeps the URL disabled the delivery is held (`disabled`) until the URL is registered again.
 */
export async function retryDelivery(
  ctx: Pick<Ctx, 'db' | 'op' | 'outbox'>,
  clientId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  // The client row lock orders this against a re-registration, which releases held deliveries.
  return inTransaction(ctx, async (tx, ctx) => {
    const [client] = await tx
      .select({ disabledAt: clients.webhookDisabledAt })
      .from(clients)
      .where(eq(clients.id, clientId))
      .for('update');
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: client?.disabledAt ? 'disabled' : 'pending', tries: 0, nextAttemptAt: sql`now()` })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.clientId, clientId)))
      .returning();
    if (!row) throw notFound('delivery_not_found', 'Webhook delivery not found.');
    outboxWritten(ctx, 'webhooks');
    return deliveryView(row);
  });
}
