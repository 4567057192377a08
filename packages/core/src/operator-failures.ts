import { sql } from 'drizzle-orm';
import type { Ctx } from './context.js';

/** A message that could not be sent, as the operator's tools show it: never its body. */
export interface FailedMessage {
  message_id: string;
  merchant_id: string;
  channel: string;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: string;
}

/** A webhook delivery that failed or was disabled, with its last try's answer or error. */
export interface FailedDelivery {
  delivery_id: string;
  client_id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: string;
  tries: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/**
 * Messages given up on (`failed`) and, with `retrying`, those still being retried after a failure:
 * newest first, at most `limit`. Production has no sandbox inbox, so this is where an operator sees them.
 */
export async function failedMessages(
  ctx: Pick<Ctx, 'db'>,
  opts: { retrying?: boolean; limit?: number } = {},
): Promise<FailedMessage[]> {
  const statuses = opts.retrying ? ['failed', 'retrying'] : ['failed'];
  const rows = (await ctx.db.execute(sql`
    select id, merchant_id, channel, recipient, status, attempts, last_error, created_at from messages
    where status in (${sql.join(
      statuses.map((s) => sql`${s}`),
      sql`, `,
    )})
    order by created_at desc, id desc limit ${opts.limit ?? 1000}`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  return rows.rows.map((r) => ({
    message_id: String(r.id),
    merchant_id: String(r.merchant_id),
    channel: String(r.channel),
    recipient: String(r.recipient),
    status: String(r.status),
    attempts: Number(r.attempts),
    last_error: (r.last_error as string | null) ?? null,
    created_at: iso(r.created_at),
  }));
}

/** Webhook deliveries that failed or were disabled (with `retrying`, those being retried too), newest first. */
export async function failedDeliveries(
  ctx: Pick<Ctx, 'db'>,
  opts: { retrying?: boolean; limit?: number } = {},
): Promise<FailedDelivery[]> {
  const statuses = opts.retrying ? ['failed', 'disabled', 'retrying'] : ['failed', 'disabled'];
  const rows = (await ctx.db.execute(sql`
    select id, client_id, event_id, event_type, url, status, tries, attempts -> -1 as last, created_at from webhook_deliveries
    where status in (${sql.join(
      statuses.map((s) => sql`${s}`),
      sql`, `,
    )})
    order by created_at desc, id desc limit ${opts.limit ?? 1000}`)) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  return rows.rows.map((r) => {
    const last = (typeof r.last === 'string' ? JSON.parse(r.last) : r.last) as {
      status_code?: number | null;
      error?: string | null;
    } | null;
    return {
      delivery_id: String(r.id),
      client_id: String(r.client_id),
      event_id: String(r.event_id),
      event_type: String(r.event_type),
      url: String(r.url),
      status: String(r.status),
      tries: Number(r.tries),
      last_status_code: last?.status_code ?? null,
      last_error: last?.error ?? null,
      created_at: iso(r.created_at),
    };
  });
}
