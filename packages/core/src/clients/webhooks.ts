import { and, eq, sql } from 'drizzle-orm';
import type { UpdateWebhookUrlInput } from '@remit/contract';
import type { Ctx } from '../context.js';
import { clients, webhookDeliveries } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { isBlockedHostName } from '../events/address-guard.js';
import { newKey } from '../keys.js';

export interface WebhookRegistration {
  webhook_url: string;
  signing_secret: string;
}

const urlError = (message: string) => invalid('invalid_webhook_url', message, [{ path: 'webhook_url', message }]);

/** Checks the shape of a webhook URL; production allows only https to public hosts. */
export function checkWebhookUrl(raw: string, env: Ctx['env']): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlError('webhook_url must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw urlError('webhook_url must be an absolute http or https URL.');
  }
  if (url.username || url.password) throw urlError('webhook_url must not carry a user name or password.');
  if (env === 'production') {
    if (url.protocol !== 'https:') throw urlError('webhook_url must use https in production.');
    if (isBlockedHostName(url.hostname)) {
      throw urlError('webhook_url must point at a public host: loopback, private, link-local and metadata addresses are refused in production.');
    }
  }
  return url.toString();
}

/**
 * Registers (or replaces) the client's webhook URL. The signing secret is made on the first
 * registration and kept afterwards, so receivers keep verifying across URL changes. A new
 * registration re-enables a URL a 410 disabled and resumes the deliveries held meanwhile.
 */
export async function updateWebhookUrl(ctx: Ctx, clientId: string, input: UpdateWebhookUrlInput): Promise<WebhookRegistration> {
  const url = checkWebhookUrl(input.webhook_url, ctx.env);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(clients).where(eq(clients.id, clientId)).for('update');
    if (!row) throw new RemitError('unauthorized', 'Invalid client credentials.');
    let secret: string;
    let secretEnc = row.webhookSecretEnc;
    if (secretEnc) {
      secret = ctx.vault.decrypt(secretEnc);
    } else {
      secret = newKey.webhookSecret();
      secretEnc = ctx.vault.encrypt(secret);
    }
    await tx
      .update(clients)
      .set({ webhookUrl: url, webhookSecretEnc: secretEnc, webhookDisabledAt: null })
      .where(eq(clients.id, clientId));
    // Deliveries not yet sent go to the new URL; those a 410 held back are due again.
    await tx
      .update(webhookDeliveries)
      .set({ url })
      .where(and(eq(webhookDeliveries.clientId, clientId), sql`${webhookDeliveries.status} in ('pending', 'retrying', 'disabled')`));
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', tries: 0, nextAttemptAt: sql`now()` })
      .where(and(eq(webhookDeliveries.clientId, clientId), eq(webhookDeliveries.status, 'disabled')));
    return { webhook_url: url, signing_secret: secret };
  });
}
