import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@remit/sdk';
import { Arrivals } from './waiting.js';

/** One webhook as the sandbox delivered it, its signature checked. */
export interface ReceivedWebhook<D = Record<string, any>> {
  event_type: string;
  data: D;
  /** The event's id (`evt_…`, the `webhook-id` header). */
  id: string;
  /** The raw headers of the delivery. */
  headers: Record<string, string>;
  receivedAt: Date;
}

/** What `webhooks.next` matches: a predicate on the event, or fields its `data` must equal. */
export type WebhookWhere = ((event: ReceivedWebhook) => boolean) | Record<string, unknown>;

export interface Webhooks {
  /** The next event of this type (matching `where`) that no earlier `next` returned; waits up to `timeoutMs` (default 5000). */
  next<D = Record<string, any>>(
    eventType: string,
    opts?: { where?: WebhookWhere; timeoutMs?: number },
  ): Promise<ReceivedWebhook<D>>;
  /** Every event received so far, oldest first. */
  all(): ReceivedWebhook[];
  /** Deliveries whose signature did not verify (the receiver answered 400): should stay empty. */
  rejected(): Array<{ error: string; body: string }>;
  /** Where the sandbox delivers them. */
  readonly url: string;
}

/** A delivery as JSON: the GET on the receiver and `GET /testing/webhooks/next`. */
export const webhookView = (e: ReceivedWebhook) => ({
  id: e.id,
  event_type: e.event_type,
  data: e.data,
  received_at: e.receivedAt.toISOString(),
});

function matches(event: ReceivedWebhook, where: WebhookWhere | undefined): boolean {
  if (!where) return true;
  if (typeof where === 'function') return where(event);
  return Object.entries(where).every(([k, v]) => event.data[k] === v);
}

/**
 * The webhook endpoint of a sandbox: an HTTP server on a free loopback port that checks each
 * delivery's Standard Webhooks signature against the signing secret (and its timestamp against the
 * sandbox clock) before keeping it.
 */
export async function startWebhookReceiver(secret: () => string | null, now: () => Date, port = 0) {
  const arrivals = new Arrivals<ReceivedWebhook>();
  const rejected: Array<{ error: string; body: string }> = [];
  const server: Server = createServer((req, res) => {
    // A GET lists what arrived, for tests in other languages that read the receiver itself.
    if (req.method === 'GET' || req.method === 'HEAD') {
      req.resume();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ received: arrivals.all().map(webhookView), rejected }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      try {
        const key = secret();
        if (!key) throw new Error('no signing secret yet');
        const event = verifyWebhook(key, new Headers(headers), body, { now: now() });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        arrivals.push({
          event_type: event.event_type,
          data: event.data as Record<string, any>,
          id: headers['webhook-id'] ?? '',
          headers,
          receivedAt: new Date(),
        });
      } catch (err) {
        rejected.push({ error: (err as Error).message, body });
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: (err as Error).message }));
      }
    });
  });
  // A delivery the dispatcher keeps alive must not hold stop() up.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const webhooks: Webhooks = {
    url,
    next(eventType, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? 5000;
      return arrivals.next(
        (e) => e.event_type === eventType && matches(e, opts.where),
        timeoutMs,
        () =>
          `webhook ${eventType}${opts.where ? ' matching where' : ''} (received so far: ${
            arrivals
              .all()
              .map((e) => e.event_type)
              .join(', ') || 'none'
          }${rejected.length ? `; ${rejected.length} rejected: ${rejected[0]!.error}` : ''})`,
      ) as never;
    },
    all: () => arrivals.all(),
    rejected: () => [...rejected],
  };
  return {
    webhooks,
    /** The next delivery not yet taken (of `type`), or null after `timeoutMs` or once `signal` aborts. */
    take: (type: string | undefined, timeoutMs: number, signal?: AbortSignal) =>
      arrivals.take((e) => type === undefined || e.event_type === type, timeoutMs, signal),
    clear() {
      arrivals.clear();
      rejected.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
