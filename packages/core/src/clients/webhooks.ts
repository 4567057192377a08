import { and, eq, sql } from 'drizzle-orm';
import type { UpdateWebhookUrlInput } from '@remit/contract';
import type { Ctx } from '../context.js';
import { clients, webhookDeliveries } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { checkHost, isBlockedHostName, webhookPort } from '../webhooks/address-guard.js';
import { newKey } from '../secret-keys.js';

export interface WebhookRegistration {
  webhook_url: string;
  signing_secret: string;
}

/** What a rotation of the signing secret answers: the new secret (shown once) and when the old one stops signing. */
export interface RotatedWebhookSecret {
  client_id: string;
  signing_secret: string;
  /** Until then each delivery is signed with the old secret too; null: the old one stopped at once. */
  previous_valid_until: string | null;
}

const urlError = (message: string) => invalid('invalid_webhook_url', message, [{ path: 'webhook_url', message }]);

const NOT_PUBLIC =
  'webhook_url must point at a public host: loopback, private, link-local, metadata and other special-use addresses are refused in production.';
const NOT_PUBLIC_SANDBOX =
  'webhook_url must point at a public host: this sandbox is reachable from other machines, so loopback, private, link-local, metadata and other special-use addresses are refused (the operator can allow them with REMIT_ALLOW_PRIVATE_WEBHOOKS=true).';
const notPublic = (env: Ctx['env']) => (env === 'production' ? NOT_PUBLIC : NOT_PUBLIC_SANDBOX);

/**
 * Checks the shape of a webhook URL. Production allows only https, on port 443 or one the operator
 * opened (REMIT_WEBHOOK_PORTS); where private webhooks are off (production, and a sandbox others
 * can reach) only public hosts.
 */
export function checkWebhookUrl(raw: string, ctx: Pick<Ctx, 'env' | 'privateWebhooks' | 'webhookPorts'>): string {
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
  const production = ctx.env === 'production';
  if (production && url.protocol !== 'https:') throw urlError('webhook_url must use https in production.');
  if (!ctx.privateWebhooks && isBlockedHostName(url.hostname)) throw urlError(notPublic(ctx.env));
  if (production && !ctx.webhookPorts.includes(webhookPort(url))) {
    throw urlError(
      `webhook_url must use port ${orList(ctx.webhookPorts)} in production (the operator opens others with REMIT_WEBHOOK_PORTS).`,
    );
  }
  return url.toString();
}

const orList = (ports: readonly number[]) =>
  ports.length < 2 ? String(ports[0]) : `${ports.slice(0, -1).join(', ')} or ${ports.at(-1)}`;

/**
 * Where private webhooks are off the host is resolved now and refused if any answer is a blocked
 * address (the dispatcher checks again at connect time, against DNS that may have changed). A name
 * that does not resolve yet is accepted: each delivery's connect-time check refuses it if it later
 * resolves to a blocked address. The message never names the address a name resolved to.
 */
async function checkResolvedHost(host: string, env: Ctx['env']): Promise<void> {
  const verdict = await checkHost(host);
  if (verdict === 'blocked') {
    throw urlError(
      `webhook_url must point at a public host: ${host} resolves to a loopback, private, link-local, metadata or other special-use address, which ${env === 'production' ? 'production' : 'this sandbox'} refuses.`,
    );
  }
}

/**
 * Registers (or replaces) the client's webhook URL. The signing secret is made on the first
 * registration and kept afterwards, so receivers keep verifying across URL changes. A new
 * registration re-enables a URL a 410 disabled and resumes the deliveries held meanwhile.
 */
export async function updateWebhookUrl(
  ctx: Ctx,
  clientId: string,
  input: UpdateWebhookUrlInput,
): Promise<WebhookRegistration> {
  const url = checkWebhookUrl(input.webhook_url, ctx);
  if (!ctx.privateWebhooks) await checkResolvedHost(new URL(url).hostname, ctx.env);
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
      .set({
        webhookUrl: url,
        webhookSecretEnc: secretEnc,
        webhookDisabledAt: null,
        // A different URL starts with its circuit closed: the old one's failures are not its own.
        ...(row.webhookUrl === url ? {} : { webhookFailures: 0, webhookSlowSince: null }),
      })
      .where(eq(clients.id, clientId));
    // Deliveries not yet sent go to the new URL; those a 410 held back are due again.
    await tx
      .update(webhookDeliveries)
      .set({ url })
      .where(
        and(
          eq(webhookDeliveries.clientId, clientId),
          sql`${webhookDeliveries.status} in ('pending', 'retrying', 'disabled')`,
        ),
      );
    await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', tries: 0, nextAttemptAt: sql`now()` })
      .where(and(eq(webhookDeliveries.clientId, clientId), eq(webhookDeliveries.status, 'disabled')));
    return { webhook_url: url, signing_secret: secret };
  });
}

/**
 * Gives a client's webhooks a new signing secret (returned once, stored encrypted). Without
 * `overlapMs` deliveries are signed with the new one only, at once; with it, each delivery carries
 * both signatures (new first) until the overlap ends, so receivers can move to the new secret
 * without rejecting a delivery (docs/operations.md "Rotating a webhook signing secret"). The old
 * secret stays encrypted beside the new one until then; `remit purge` (and on PostgreSQL the
 * background purge) erases it afterwards.
 */
export async function rotateWebhookSecret(
  ctx: Pick<Ctx, 'db' | 'env' | 'vault'>,
  clientId: string,
  opts: { overlapMs?: number } = {},
): Promise<RotatedWebhookSecret> {
  const secret = newKey.webhookSecret();
  const until = opts.overlapMs ? new Date(Date.now() + opts.overlapMs) : null;
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ env: clients.env, secretEnc: clients.webhookSecretEnc })
      .from(clients)
      .where(eq(clients.id, clientId))
      .for('update');
    if (!row) throw new RemitError('client_not_found', `No client has the id ${clientId}.`);
    if (row.env !== ctx.env)
      throw new RemitError(
        'client_not_found',
        `The client ${clientId} belongs to the ${row.env} environment; this configuration is ${ctx.env}.`,
      );
    if (!row.secretEnc)
      throw new RemitError(
        'webhook_url_not_set',
        `The client ${clientId} has no webhook signing secret yet: it is made when the client sets its webhook URL (POST /client/update-webhooks-url). Nothing was rotated.`,
      );
    await tx
      .update(clients)
      .set({
        webhookSecretEnc: ctx.vault.encrypt(secret),
        // Only the secret in use now overlaps: a rotation during an overlap ends the one before.
        webhookPreviousSecretEnc: until ? row.secretEnc : null,
        webhookPreviousSecretUntil: until,
      })
      .where(eq(clients.id, clientId));
  });
  return { client_id: clientId, signing_secret: secret, previous_valid_until: until?.toISOString() ?? null };
}
