import { and, eq } from 'drizzle-orm';
import type { PortalMessages } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants, messages } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { listSandboxMessages } from '../messages/inbox.js';
import type { Merchant } from '../merchants/merchant-key.js';

/** The portal's inbox: the newest 50 SMS and emails of the client's merchants (or of one). */
export async function portalMessages(ctx: Ctx, clientId: string, merchant: Merchant | null): Promise<PortalMessages> {
  const page = await listSandboxMessages(ctx, clientId, merchant, { limit: 50 });
  return { messages: page.messages, totalCount: page.totalCount };
}

/**
 * One email's HTML, for the portal to show in a sandboxed frame (the route serves it with a CSP
 * that allows no script). Another client's message is the same 404 as an unknown one.
 */
export async function portalMessageHtml(ctx: Ctx, clientId: string, messageId: string): Promise<string> {
  if (ctx.env !== 'sandbox')
    throw new RemitError('sandbox_only', 'The sandbox inbox exists only in the sandbox environment.');
  const [row] = await ctx.db
    .select({ html: messages.bodyHtml, text: messages.bodyText })
    .from(messages)
    .innerJoin(merchants, eq(merchants.id, messages.merchantId))
    .where(and(eq(messages.id, messageId), eq(merchants.clientId, clientId)))
    .limit(1);
  if (!row) throw new RemitError('message_not_found');
  return (
    row.html ?? `<pre>${row.text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</pre>`
  );
}
