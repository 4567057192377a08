import { timingSafeEqual, createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { REFUSABLE_OPERATIONS, refusalCounts, type Core, type Processor, type WorkerOptions } from '@remit/core';
import type { App } from './routes/types.js';
import { sendError } from './plugins/errors.js';
import { REMIT_VERSION } from './version.js';

/**
 * The server's Prometheus metrics (prom-client): requests by route pattern and status, payments
 * by outcome, webhook deliveries and messages by outcome, the webhook queue, the processor's refusals
 * of calls Remit had answered (remit_processor_refusals_total), the database pool,
 * and prom-client's process metrics (memory, CPU, event-loop delay). One registry per server.
 */
export interface Metrics {
  registry: Registry;
  /** One histogram observation per answered request (onResponse). */
  observeRequest(req: FastifyRequest, reply: FastifyReply): void;
  /** The dispatchers' outcome hooks, merged into their options. */
  workerOptions(opts: WorkerOptions): WorkerOptions;
}

export function createMetrics(core: Core): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'remit_' });

  const requests = new Histogram({
    name: 'remit_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status: latency (and, as _count, how many).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const payments = new Counter({
    name: 'remit_payments_total',
    help: 'Payments sent to the processor, by method (card, ach) and outcome (approved, declined, challenge, pending, error).',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'remit_webhook_deliveries_total',
    help: 'Webhook delivery tries by outcome (delivered, retrying, failed, gone, disabled).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const messages = new Counter({
    name: 'remit_messages_total',
    help: 'SMS and email sends by channel and outcome (sent, delivered_to_inbox, retrying, failed).',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });

  // Always 1: its labels say which Remit and which Node run (a dashboard joins on it across a deploy).
  new Gauge({
    name: 'remit_build_info',
    help: 'The running Remit: version (CHANGELOG.md) and Node.js version, as labels; value 1.',
    labelNames: ['version', 'node'] as const,
    registers: [registry],
  }).set({ version: REMIT_VERSION, node: process.version }, 1);

  const db = core.ctx.db;
  // Read at scrape time from the due-deliveries index: every process sees the shared queue.
  const queueDue = new Gauge({
    name: 'remit_webhook_queue_due',
    help: 'Webhook deliveries due now and not yet sent (all processes).',
    registers: [registry],
  });
  const queueAge = new Gauge({
    name: 'remit_webhook_queue_oldest_seconds',
    help: 'How long the oldest due webhook delivery has waited (0 when none).',
    registers: [registry],
    async collect() {
      try {
        const r = await db.execute(sql`
          select count(*)::int as due, coalesce(extract(epoch from now() - min(next_attempt_at)), 0)::float8 as oldest
          from webhook_deliveries where status in ('pending', 'retrying') and next_attempt_at <= now()`);
        const row = (r as unknown as { rows: Array<{ due: number; oldest: number }> }).rows[0]!;
        queueDue.set(row.due);
        this.set(row.oldest);
      } catch {
        // The database is away: /readyz says so; the scrape still answers with the rest.
      }
    },
  });
  void queueAge;
  // Counted from the database at scrape time: refusals found by any process, or by `payments reconcile`.
  new Counter({
    name: 'remit_processor_refusals_total',
    help: 'Captures, voids and refunds the processor refused after Remit had answered them as done (their records are failed), by operation.',
    labelNames: ['operation'] as const,
    registers: [registry],
    async collect() {
      try {
        const counts = await refusalCounts(db);
        this.reset();
        for (const operation of REFUSABLE_OPERATIONS) this.inc({ operation }, counts[operation]);
      } catch {
        // The database is away: the last counts stand.
      }
    },
  });
  const poolStats = core.database.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'remit_db_pool_connections',
      help: 'Postgres pool connections of this process: max, total (open), idle, waiting (requests queued for one).',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        for (const [state, n] of Object.entries(poolStats())) this.set({ state }, n);
      },
    });
  }

  const replicas = core.database.replicas;
  if (replicas) {
    new Gauge({
      name: 'remit_db_replica_lag_seconds',
      help: 'How far each read replica (DATABASE_REPLICA_URL) is behind the primary, at its last sample; absent while it does not answer.',
      labelNames: ['replica'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { replica, seconds } of replicas.lag()) if (seconds !== null) this.set({ replica }, seconds);
      },
    });
  }

  // Every processor call is counted where it happens, whichever route or page made it.
  const processor = core.ctx.processor;
  core.ctx.processor = observedProcessor(processor, (method, outcome) => payments.inc({ method, outcome }));

  return {
    registry,
    observeRequest(req, reply) {
      requests.observe(
        { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    },
    workerOptions(opts) {
      return {
        ...opts,
        webhooks: { ...opts.webhooks, onOutcome: (outcome) => deliveries.inc({ outcome }) },
        messages: { ...opts.messages, onOutcome: (channel, outcome) => messages.inc({ channel, outcome }) },
      };
    },
  };
}

function observedProcessor(p: Processor, count: (method: 'card' | 'ach', outcome: string) => void): Processor {
  // The rest as it is: a connector's own parts (Stripe's client, merchant accounts) stay reachable.
  return {
    ...p,
    async authorizeCard(card, amountCents, opts) {
      try {
        const r = await p.authorizeCard(card, amountCents, opts);
        count('card', r.approved ? 'approved' : r.code === 'authentication_required' ? 'challenge' : 'declined');
        return r;
      } catch (err) {
        count('card', 'error');
        throw err;
      }
    },
    async startAchDebit(input) {
      try {
        const r = await p.startAchDebit(input);
        count('ach', 'pending');
        return r;
      } catch (err) {
        count('ach', 'error');
        throw err;
      }
    },
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Times every answer of the app (registered before its routes). */
export function registerRequestMetrics(app: App, metrics: Metrics) {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeRequest(req, reply);
    done();
  });
}

/**
 * `GET /metrics`: open in sandbox; in production only with REMIT_METRICS_TOKEN set (404 without
 * it, as if there were no such page) and `Authorization: Bearer <token>` (401 otherwise).
 */
export function metricsRoutes(app: App, metrics: Metrics, opts: { env: 'sandbox' | 'production'; token?: string }) {
  if (opts.env === 'production' && !opts.token) return;
  const wanted = opts.token ? digest(`Bearer ${opts.token}`) : null;
  app.get('/metrics', { config: { public: true, quietLog: true }, schema: { hide: true } }, async (req, reply) => {
    if (wanted && !timingSafeEqual(digest(req.headers.authorization ?? ''), wanted)) {
      reply.header('www-authenticate', 'Bearer');
      return sendError(
        req,
        reply,
        401,
        'unauthorized',
        'GET /metrics needs Authorization: Bearer $REMIT_METRICS_TOKEN.',
      );
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
