import type { Ctx } from './context.js';
import { startWebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/dispatcher.js';
import { startMessageDispatcher, type MessageDispatcherOptions } from './messages/dispatcher.js';
import { smtpTransport } from './messages/transports/smtp.js';
import { twilioConnector, twilioSettingsFromEnv } from './messages/transports/twilio.js';
import { startLinkExpiry } from './links/expiry.js';
import { DEFAULT_RETENTION, startPurge, type PurgeLogger, type Retention } from './retention/purge.js';
import type { Env } from './environment.js';
import type { Messaging } from './messages/channels.js';
import { startReconciler } from './reconciliation/reconcile.js';

export interface WorkerOptions {
  webhooks?: WebhookDispatcherOptions;
  messages?: MessageDispatcherOptions;
  /** What the purge keeps, and how often it runs (default DEFAULT_RETENTION); false: no purge in this process. */
  retention?: Retention | false;
  logger?: PurgeLogger;
  /** How often reconciliation asks the processor (default 5 minutes); false: not in this process. */
  reconcile?: { pollMs?: number; pendingAfterMs?: number } | false;
}

export interface Workers {
  /** Look for new events and messages now (after a commit), instead of at the next poll. */
  nudge(): void;
  stop(): Promise<void>;
}

/**
 * Starts the webhook and message dispatchers of this process, the expiry of widget links, and the
 * retention purge (at once, then on its schedule), and reconciliation with the processor (at once,
 * then every 5 minutes; only with a processor that can be asked, such as Stripe).
 */
export function startWorkers(ctx: Ctx, opts: WorkerOptions = {}): Workers {
  const production = ctx.env === 'production';
  // Where webhooks may go, as registration checks it, checked again at each connect.
  const targets = {
    allowPrivateAddresses: ctx.privateWebhooks,
    httpsOnly: production,
    ports: production ? ctx.webhookPorts : null,
  };
  const webhooks = startWebhookDispatcher(ctx, { logger: opts.logger, ...targets, ...opts.webhooks });
  const messages = startMessageDispatcher(ctx, { logger: opts.logger, ...opts.messages });
  const expiry = startLinkExpiry(ctx, { logger: opts.logger });
  const purge =
    opts.retention === false ? null : startPurge(ctx, opts.retention ?? DEFAULT_RETENTION, { logger: opts.logger });
  const reconcile = opts.reconcile === false ? null : startReconciler(ctx, { logger: opts.logger, ...opts.reconcile });
  return {
    nudge() {
      webhooks.nudge();
      messages.nudge();
    },
    async stop() {
      await Promise.all([webhooks.stop(), messages.stop(), expiry.stop(), purge?.stop(), reconcile?.stop()]);
    },
  };
}

/**
 * Worker settings from the environment: `REMIT_WEBHOOK_RETRY_SCALE` (a factor on the retry
 * schedule), `REMIT_WEBHOOK_TIMEOUT_MS` (default 10 000), `REMIT_WEBHOOK_LEASE_MS` (default timeout + 30 s),
 * `REMIT_WAKE_ON_COMMIT=off` (poll only), `REMIT_WAKE_GAP_MS` (default 10: woken passes under load at
 * least this far apart), `SMTP_URL` and `REMIT_EMAIL_FROM` (email transport), `TWILIO_*` (SMS, twilio.ts).
 */
export function workerOptionsFromEnv(env: Record<string, string | undefined>): WorkerOptions {
  const scale = env.REMIT_WEBHOOK_RETRY_SCALE ? Number(env.REMIT_WEBHOOK_RETRY_SCALE) : undefined;
  if (scale !== undefined && !(Number.isFinite(scale) && scale >= 0)) {
    throw new Error('REMIT_WEBHOOK_RETRY_SCALE must be a number of 0 or more');
  }
  const ms = (name: string) => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a whole number of milliseconds`);
    return n;
  };
  // Off: the dispatchers find new rows by their poll alone (for comparison; the wake-up is the default).
  const wakeOnCommit = env.REMIT_WAKE_ON_COMMIT === 'off' ? false : undefined;
  const gap = env.REMIT_WAKE_GAP_MS;
  const wakeGapMs = gap === undefined || gap === '' ? undefined : Number(gap);
  if (wakeGapMs !== undefined && !(Number.isInteger(wakeGapMs) && wakeGapMs >= 0)) {
    throw new Error('REMIT_WAKE_GAP_MS must be a whole number of milliseconds (0 or more)');
  }
  const twilio = twilioSettingsFromEnv(env);
  return {
    // Timeout and lease are operator knobs mainly for tests (a shorter lease recovers sooner after a crash).
    webhooks: {
      retryScale: scale,
      timeoutMs: ms('REMIT_WEBHOOK_TIMEOUT_MS'),
      leaseMs: ms('REMIT_WEBHOOK_LEASE_MS'),
      wakeOnCommit,
      wakeGapMs,
    },
    messages: {
      retryScale: scale,
      wakeOnCommit,
      wakeGapMs,
      email: env.SMTP_URL ? smtpTransport(env.SMTP_URL, env.REMIT_EMAIL_FROM || undefined) : undefined,
      sms: twilio ? twilioConnector(twilio) : undefined,
    },
  };
}

/** The channels these worker settings can deliver on: a transport, or in sandbox the inbox. */
export function messagingOf(env: Env, opts: WorkerOptions): Messaging {
  const email = !!opts.messages?.email;
  const sms = !!opts.messages?.sms;
  return {
    email: env === 'sandbox' || email,
    sms: env === 'sandbox' || sms,
    providers: [...(sms ? ['sms' as const] : []), ...(email ? ['email' as const] : [])],
  };
}
