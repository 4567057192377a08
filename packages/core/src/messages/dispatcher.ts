import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db/connect.js';
import { retryDelayMs } from '../webhooks/deliveries.js';
import { DEFAULT_WAKE_GAP_MS, type DispatcherLogger } from '../webhooks/dispatcher.js';
import { ClaimLoop, claimDue } from '../poll-loop.js';
import { RejectedMessageError, SANDBOX_INBOX_STATUS, type SmsConnector } from './transports/sms.js';
import type { EmailTransport } from './transports/smtp.js';
import type { OutboxSignal } from '../outbox-signal.js';

export interface MessageDispatcherOptions {
  email?: EmailTransport;
  sms?: SmsConnector;
  /** Keep messages without a transport in the sandbox inbox. Default: in sandbox yes. */
  inbox?: boolean;
  retryScale?: number;
  pollMs?: number;
  /** Look at once when an operation of this process commits a message. Default true (off: poll only). */
  wakeOnCommit?: boolean;
  /** Under a stream of commits, passes start at least this far apart. Default 10 ms. */
  wakeGapMs?: number;
  batchSize?: number;
  leaseMs?: number;
  random?: () => number;
  logger?: DispatcherLogger;
  /** Told each send's outcome: `sent`, `delivered_to_inbox`, `retrying` or `failed` (the server's metrics count them). */
  onOutcome?: (channel: 'sms' | 'email', status: string) => void;
}

interface ClaimedMessage {
  id: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  attempts: number;
  lease_id: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An HTML part for a message queued with text only: escaped, links made clickable. */
export function htmlFromText(text: string): string {
  const body = escapeHtml(text)
    .replace(/https?:\/\/[^\s<]+/g, (u) => `<a href="${u}">${u}</a>`)
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `<!doctype html><html><body>${body}</body></html>`;
}

/**
 * Sends the `messages` outbox: email through the email transport, SMS through the SMS connector,
 * and, with neither configured in sandbox, keeps them in the sandbox inbox. Claims are leases,
 * as for webhooks; failed sends are retried on the webhook schedule and then marked failed.
 */
export class MessageDispatcher {
  readonly #db: Db;
  readonly #ctx: Pick<Ctx, 'publicUrl'>;
  readonly #o: MessageDispatcherOptions & {
    inbox: boolean;
    retryScale: number;
    pollMs: number;
    wakeGapMs: number;
    batchSize: number;
    leaseMs: number;
  };
  readonly #loop: ClaimLoop<ClaimedMessage>;
  #unsubscribe: (() => void) | null = null;
  /** The commits this dispatcher wakes on (the context's signal); none: it only polls. */
  readonly #outbox: OutboxSignal | undefined;

  constructor(
    ctx: Pick<Ctx, 'db' | 'env' | 'publicUrl'> & Partial<Pick<Ctx, 'outbox'>>,
    opts: MessageDispatcherOptions = {},
  ) {
    this.#db = ctx.db;
    this.#outbox = ctx.outbox;
    // Read at each send: a test server learns its address after the dispatcher is made.
    this.#ctx = ctx;
    this.#o = {
      ...opts,
      inbox: opts.inbox ?? ctx.env === 'sandbox',
      retryScale: opts.retryScale ?? 1,
      pollMs: opts.pollMs ?? 100,
      wakeGapMs: opts.wakeGapMs ?? DEFAULT_WAKE_GAP_MS,
      batchSize: opts.batchSize ?? 10,
      leaseMs: opts.leaseMs ?? 120_000,
    };
    this.#loop = new ClaimLoop<ClaimedMessage>({
      claim: (n) => this.#claim(n),
      handle: (m) => this.#send(m),
      concurrency: this.#o.batchSize,
      pollMs: this.#o.pollMs,
      wakeGapMs: this.#o.wakeGapMs,
      failureMessage: 'message dispatcher pass failed',
      logger: this.#o.logger,
    });
  }

  start(): this {
    this.#loop.start();
    if (this.#o.wakeOnCommit !== false)
      this.#unsubscribe ??= this.#outbox?.listen((kind) => kind === 'messages' && this.nudge()) ?? null;
    return this;
  }

  nudge(): void {
    this.#loop.wake();
  }

  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    await this.#loop.stop();
    this.#o.email?.close();
  }

  /** One pass: claim due messages and send them. */
  runOnce(): Promise<number> {
    return this.#loop.runOnce();
  }

  #claim(n: number): Promise<ClaimedMessage[]> {
    return claimDue<ClaimedMessage>(this.#db, {
      table: 'messages',
      limit: n,
      leaseSeconds: this.#o.leaseMs / 1000,
      returning: sql`d.id, d.channel, d.recipient, d.subject, d.body_text, d.body_html, d.attempts, d.lease_id`,
    });
  }

  async #send(m: ClaimedMessage): Promise<void> {
    const attempts = m.attempts + 1;
    let status: string;
    let error: string | null = null;
    let delay: number | null = null;
    let providerId: string | null = null;
    try {
      const transport = m.channel === 'email' ? this.#o.email : this.#o.sms;
      if (transport) {
        if (m.channel === 'email') {
          await this.#o.email!.send({
            to: m.recipient,
            subject: m.subject ?? '',
            text: m.body_text,
            html: m.body_html ?? htmlFromText(m.body_text),
          });
        } else {
          providerId =
            (await this.#o.sms!.send(m.recipient, m.body_text, { publicUrl: this.#ctx.publicUrl })).id ?? null;
        }
        status = 'sent';
      } else if (this.#o.inbox) {
        status = SANDBOX_INBOX_STATUS;
      } else {
        status = 'failed';
        error = `no ${m.channel} transport is configured`;
      }
    } catch (err) {
      error = (err as Error).message || String(err);
      // Refused for good (an invalid number): no retry could send it.
      delay = err instanceof RejectedMessageError ? null : retryDelayMs(attempts, this.#o.retryScale, this.#o.random);
      status = delay === null ? 'failed' : 'retrying';
      // The operator reads why in the log, not only in the row (no secret: the recipient is not logged).
      const provider = (m.channel === 'email' ? this.#o.email?.name : this.#o.sms?.name) ?? m.channel;
      const cause = sendFailureCause(err);
      this.#o.logger?.warn(
        { provider, channel: m.channel, message_id: m.id, attempts, status, cause },
        `${m.channel} send failed (${provider}), ${status === 'failed' ? 'given up' : 'will retry'}: ${cause}`,
      );
    }
    this.#o.onOutcome?.(m.channel, status);
    const sent = status === 'sent' || status === SANDBOX_INBOX_STATUS;
    try {
      await this.#db.execute(sql`
        update messages
        set status = ${status}, attempts = ${attempts}, last_error = ${error},
            sent_at = ${sent ? sql`now()` : sql`sent_at`}, provider_id = coalesce(${providerId}, provider_id),
            next_attempt_at = now() + make_interval(secs => ${(delay ?? 0) / 1000}),
            locked_until = null, lease_id = null
        where id = ${m.id} and lease_id = ${m.lease_id}`);
    } catch (err) {
      this.#o.logger?.warn({ err, message_id: m.id }, 'message status could not be recorded');
    }
  }
}

/** A transport's error as one line: its code (ENOTFOUND, EAUTH, …) and message. */
function sendFailureCause(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export function startMessageDispatcher(
  ctx: Pick<Ctx, 'db' | 'env' | 'publicUrl'> & Partial<Pick<Ctx, 'outbox'>>,
  opts: MessageDispatcherOptions = {},
) {
  return new MessageDispatcher(ctx, opts).start();
}
