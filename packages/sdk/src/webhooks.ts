import type { WebhookEvent } from '@remit/contract';
import { constantTimeEqual, fromBase64, hmacSha256 } from './hmac.js';

export type { WebhookEvent, WebhookEventOf, EventType, EventData } from '@remit/contract';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const h = headers as Record<string, string | string[] | undefined>;
  const v = h[name] ?? Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(v) ? v[0] : v;
}

const utf8 = new TextEncoder();

/**
 * Checks a Remit webhook's Standard Webhooks signature and returns the event, typed by its
 * `event_type`; throws `WebhookVerificationError` when the signature is wrong, missing, or older
 * than the tolerance. Pass the raw body exactly as received (a re-serialized object would not
 * verify). The payload itself is not re-validated: a correct signature proves Remit sent it.
 *
 * @example
 * const event = verifyWebhook(process.env.REMIT_WEBHOOK_SECRET!, req.headers, rawBody);
 * if (event.event_type === 'payment.refund') console.log(event.data.parent_transaction_id);
 */
export function verifyWebhook(
  secret: string,
  headers: Headers,
  body: string | Uint8Array,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(ts))
    throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceSeconds ?? 300;
  if (Math.abs(now - ts) > tolerance) throw new WebhookVerificationError('Webhook timestamp is outside the tolerance');
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let key: Uint8Array;
  try {
    key = fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  } catch {
    throw new WebhookVerificationError('The signing secret is not base64 (expected whsec_…)');
  }
  const expected = hmacSha256(key, utf8.encode(`${id}.${timestamp}.${text}`));
  const match = signatures.split(' ').some((sig) => {
    const [version, value] = sig.split(',');
    if (version !== 'v1' || !value) return false;
    try {
      return constantTimeEqual(fromBase64(value), expected);
    } catch {
      return false;
    }
  });
  if (!match) throw new WebhookVerificationError('No matching webhook signature');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('Webhook body is not JSON');
  }
  if (!event || typeof event !== 'object' || typeof (event as WebhookEvent).event_type !== 'string') {
    throw new WebhookVerificationError('Webhook body has no event_type');
  }
  return event as WebhookEvent;
}
