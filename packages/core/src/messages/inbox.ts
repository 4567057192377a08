import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { listMessagesQuery, type ListMessagesQuery, type MessageView, type SandboxMessagePage } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants, messages } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import type { Merchant } from '../merchants/merchant-key.js';

export function parseListMessages(input: unknown): ListMessagesQuery {
  const r = listMessagesQuery.safeParse(input ?? {});
  if (r.success) return r.data;
  const errors = r.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message }));
  throw invalid(
    'invalid_request',
    `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}

/**
 * The sandbox inbox: messages of this client's merchants (all of them, or one merchant's),
 * newest first, with their delivery status. Sandbox only.
 */
export async function listSandboxMessages(ctx: Ctx, clientId: string, merchant: Merchant | null, q: ListMessagesQuery) {
  if (ctx.env !== 'sandbox') {
    throw new RemitError('sandbox_only', 'The sandbox inbox exists only in the sandbox environment.');
  }
  const page = q.page ?? 0;
  const limit = q.limit ?? 20;
  const where: SQL[] = [eq(merchants.clientId, clientId)];
  if (merchant) where.push(eq(messages.merchantId, merchant.id));
  if (q.recipient) where.push(eq(messages.recipient, q.recipient));
  if (q.channel) where.push(eq(messages.channel, q.channel));
  const cond = and(...where);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ m: messages })
      .from(messages)
      .innerJoin(merchants, eq(merchants.id, messages.merchantId))
      .where(cond)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit)
      .offset(page * limit),
    ctx.db
      .select({ n: count() })
      .from(messages)
      .innerJoin(merchants, eq(merchants.id, messages.merchantId))
      .where(cond),
  ]);
  const totalCount = Number(total?.n ?? 0);
  const list: MessageView[] = rows.map(({ m }) => ({
    id: m.id,
    merchant_id: m.merchantId,
    channel: m.channel,
    recipient: m.recipient,
    subject: m.subject,
    body_text: m.bodyText,
    body_html: m.bodyHtml,
    pay_link_id: m.payLinkId,
    status: m.status,
    attempts: m.attempts,
    last_error: m.lastError,
    next_attempt_at: m.status === 'pending' || m.status === 'retrying' ? m.nextAttemptAt.toISOString() : null,
    created_at: m.createdAt.toISOString(),
    sent_at: m.sentAt ? m.sentAt.toISOString() : null,
  }));
  return {
    messages: list,
    page,
    limit,
    totalCount,
    totalPage: Math.ceil(totalCount / limit),
  } satisfies SandboxMessagePage;
}
