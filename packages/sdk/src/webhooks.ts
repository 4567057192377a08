import { createHmac, timingSafeEqual } from 'node:crypto';

/** A webhook as Remit sends it: `{event_type, data}` plus the event's `id` and `created_at`. */
export interface WebhookEvent<T = Record<string, unknown>> {
  event_type: string;
  data: T;
  id?: string;
  created_at?: string;
}

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

/**
 * Checks a Remit webhook's Standard Webhooks signature and returns the parsed event; throws
 * `WebhookVerificationError` when the signature is wrong, missing, or older than the tolerance.
 * Pass the raw body exactly as received (a re-serialized object would not verify).
 *
 * @example
 * const event = verifyWebhook(process.env.REMIT_WEBHOOK_SECRET!, req.headers, rawBody);
 * if (event.event_type === 'payment.success') …
 */
export function verifyWebhook<T = Record<string, unknown>>(
  secret: string,
  headers: Headers,
  body: string | Buffer,
  opts: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
  const ts = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(ts)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceSeconds ?? 300;
  if (Math.abs(now - ts) > tolerance) throw new WebhookVerificationError('Webhook timestamp is outside the tolerance');
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${text}`).digest();
  const match = signatures.split(' ').some((sig) => {
    const [version, value] = sig.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
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
  return event as WebhookEvent<T>;
}
