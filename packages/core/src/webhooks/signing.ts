import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** The key bytes of a `whsec_…` secret: base64 after the prefix, as Standard Webhooks defines. */
export function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function signWebhook(secret: string | KeyObject, id: string, timestampSeconds: number, body: string): string {
  const key = typeof secret === 'string' ? secretBytes(secret) : secret;
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers for one attempt; with `previous`, signed under both secrets. */
export function webhookHeaders(
  secret: string,
  id: string,
  body: string,
  at: Date,
  previous?: string | null,
): Record<string, string> {
  return webhookSigner(secret, previous)(id, body, at);
}

export type WebhookSigner = (id: string, body: string, at: Date) => Record<string, string>;

/**
 * `webhookHeaders` under one secret, its key bytes read once: the dispatcher signs every delivery
 * of a batch to one client with it. The key lives only in this closure. With `previous` (a rotation's
 * overlap) `webhook-signature` holds two space-separated signatures, the new secret's first:
 * Standard Webhooks receivers accept a delivery when any one of them verifies.
 */
export function webhookSigner(secret: string, previous?: string | null): WebhookSigner {
  const keys = [secret, ...(previous ? [previous] : [])].map((s) => createSecretKey(secretBytes(s)));
  return (id, body, at) => {
    const timestamp = Math.floor(at.getTime() / 1000);
    return {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': keys.map((key) => signWebhook(key, id, timestamp, body)).join(' '),
    };
  };
}
