import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { DispatcherLogger } from '../poll-loop.js';
import { PollLoop } from '../poll-loop.js';

/**
 * Links the widget backend opens (anyone with the public key can) expire unpaid: past `expires_at`
 * (the merchant's clock) the pay page refuses them, and the sweep below marks them `expired` and
 * removes their pending sale, so a flood of them does not stay in the merchant's transactions.
 * Links made with the secret key never expire.
 */
const HOUR = 3_600_000;
export const WIDGET_LINK_TTL_MS = {
  /** The pay button: the shopper pays in the modal right away. */
  link: 24 * HOUR,
  /** The request payment SMS: the customer may open it later. */
  request: 7 * 24 * HOUR,
} as const;

/** The columns that make a link a widget link, opened at `at`. */
export const widgetLinkFields = (kind: keyof typeof WIDGET_LINK_TTL_MS, at: Date) => ({
  viaWidget: true,
  expiresAt: new Date(at.getTime() + WIDGET_LINK_TTL_MS[kind]),
});

/** Unpaid and past its expiry at `now` (the merchant's clock); the sweep may not have run yet. */
export const isExpired = (link: { status: string; expiresAt: Date | null }, now: Date) =>
  link.status === 'expired' || (link.status === 'open' && link.expiresAt !== null && link.expiresAt <= now);

const SWEEP_BATCH = 500;

/**
 * One pass: up to `batch` open links past their expiry become `expired` and their still pending
 * sales are deleted (the per-day counts follow, by trigger). A link being paid is locked by the
 * payment and skipped; once paid it is no longer open. Answers how many links expired.
 */
export async function expireWidgetLinks(ctx: Pick<Ctx, 'db' | 'now'>, batch = SWEEP_BATCH): Promise<number> {
  const now = ctx.now().toISOString();
  const res = await ctx.db.execute(sql`
    with due as (
      select l.id from pay_links l join merchants m on m.id = l.merchant_id
      where l.status = 'open' and l.expires_at is not null
        and l.expires_at <= ${now}::timestamptz + m.clock_offset_ms::double precision * interval '1 millisecond'
      order by l.expires_at
      limit ${batch}
      for update of l skip locked
    ), expired as (
      update pay_links l set status = 'expired' from due where l.id = due.id returning l.sales_id
    ), removed as (
      delete from transactions t using expired e where t.id = e.sales_id and t.status = 'pending' returning t.id
    )
    select (select count(*) from expired)::int as n`);
  return Number((res as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
}

/** The sweep in the background, every `pollMs` (default a minute), at once again while a pass was full. */
export function startLinkExpiry(
  ctx: Pick<Ctx, 'db' | 'now'>,
  opts: { pollMs?: number; logger?: DispatcherLogger } = {},
) {
  const loop = new PollLoop(async () => (await expireWidgetLinks(ctx)) === SWEEP_BATCH, {
    pollMs: opts.pollMs ?? 60_000,
    failureMessage: 'widget link expiry pass failed',
    logger: opts.logger,
  });
  loop.start();
  return loop;
}
