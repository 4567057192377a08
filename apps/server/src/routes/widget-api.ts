import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import {
  addressKey,
  createWidgetPayLink,
  listWidgetTransactions,
  merchantForPublicKey,
  sendWidgetPaymentRequest,
  widgetConfig,
  widgetOriginsFor,
  type Ctx,
} from '@remit/core';
import {
  envelope,
  errorEnvelopeSchema,
  widgetConfigQuery,
  widgetConfigSchema,
  widgetPayLinkBody,
  widgetPayLinkSchema,
  widgetRequestBody,
  widgetRequestSchema,
  widgetTransactionsQuery,
  widgetTransactionsSchema,
} from '@remit/contract';
import * as z from 'zod';
import { registerMerchant } from '../plugins/merchant.js';
import {
  databaseLimiter,
  DEFAULT_WIDGET_LIMITS,
  describeRule,
  enforce,
  type WidgetLimiter,
  type WidgetLimits,
} from '../plugins/widget-limits.js';
import { ok } from './envelope.js';
import type { App } from './types.js';

/**
 * `/widget/v1`: the widget backend, called from merchant pages with the public key alone (in the
 * `public_key` query parameter, so a CORS preflight carries it too). The page's `Origin` must be
 * one of the widget settings' allowed origins (403 otherwise); CORS answers only those origins.
 * Nothing else of the API accepts a public key.
 */

export const WIDGET_PREFIX = '/widget/v1';

const keyQuery = z
  .object({ public_key: z.string().max(200).optional() })
  .describe('public_key: the merchant public key (pk_…)');
const errors = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};

/** The allowed origin a preflight or call may be answered to, else false (no CORS headers: the browser keeps the answer from the page). */
async function corsOrigin(ctx: Ctx, req: FastifyRequest): Promise<string | false> {
  const origin = req.headers.origin;
  const key = (req.query as Record<string, unknown> | undefined)?.public_key;
  if (!origin || typeof key !== 'string') return false;
  try {
    await merchantForPublicKey(ctx.db, key, origin, (m) => widgetOriginsFor(ctx, m));
    return origin;
  } catch {
    return false;
  }
}

export interface WidgetApiOptions {
  /** Rate and amount limits (REMIT_WIDGET_*); default DEFAULT_WIDGET_LIMITS. */
  limits?: WidgetLimits;
  /** Who counts the rate limits; default the shared database limiter. */
  limiter?: WidgetLimiter;
}

export async function widgetApiRoutes(app: App, ctx: Ctx, opts: WidgetApiOptions = {}) {
  const limits = opts.limits ?? DEFAULT_WIDGET_LIMITS;
  const limiter = opts.limiter ?? databaseLimiter(ctx);
  await app.register(cors, {
    delegator: (req, cb) => {
      corsOrigin(ctx, req as FastifyRequest).then(
        (origin) =>
          cb(null, {
            origin,
            methods: ['GET', 'POST'],
            allowedHeaders: ['content-type'],
            exposedHeaders: ['retry-after'],
            maxAge: 600,
          }),
        (err) => cb(err as Error),
      );
    },
  });
  registerMerchant(app as unknown as FastifyInstance, ctx, { allowedOrigins: (m) => widgetOriginsFor(ctx, m) });

  /** Every call counts against the client address, then (if the address may) against the key. */
  const everyCall = (req: FastifyRequest, reply: FastifyReply) =>
    enforce(limiter, reply, [
      [limits.perAddress, addressKey(req.ip)],
      [limits.perKey, req.merchant.publicKey],
    ]);
  const config = { merchant: 'public_key' as const };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get(
    '/config',
    {
      config,
      schema: {
        tags: ['widget backend'],
        summary: 'Widget settings a page may see',
        description: 'Called by the widgets with the public key; the Origin must be allowed.',
        querystring: keyQuery.extend(widgetConfigQuery.shape),
        response: { 200: envelope(widgetConfigSchema), ...errors },
      },
    },
    async (req, reply) => {
      await everyCall(req, reply);
      noStore(reply);
      return ok('Widget settings.', await widgetConfig(ctx, req.merchant, req.query.appearance));
    },
  );

  app.post(
    '/pay-links',
    {
      config,
      schema: {
        tags: ['widget backend'],
        summary: 'Open a pay link for an amount (the pay button)',
        description:
          "The calling page's Origin is recorded on the link: the pay page posts its outcome there. Amount within the merchant's limit and the widget's max_amount.",
        querystring: keyQuery,
        body: widgetPayLinkBody,
        response: { 200: envelope(widgetPayLinkSchema), ...errors },
      },
    },
    async (req, reply) => {
      await enforce(limiter, reply, [[limits.payLinksPerAddress, addressKey(req.ip)]]);
      await everyCall(req, reply);
      noStore(reply);
      return ok(
        'Pay link created.',
        await createWidgetPayLink(
          ctx,
          req.merchant,
          req.widgetOrigin,
          req.body.amount,
          limits.maxAmountCents,
          req.body.order_id,
        ),
      );
    },
  );

  app.post(
    '/payment-requests',
    {
      config,
      schema: {
        tags: ['widget backend'],
        summary: 'Send a payment request SMS (the request payment button)',
        description: `US (10 digits) or E.164 phone, in one of the widget settings' sms_countries (default US and CA; else 400 phone_country_not_allowed). At most ${describeRule(limits.smsPerPhone)} per phone (of this merchant), ${describeRule(limits.smsPerAddress)} per client address and ${describeRule(limits.smsPerKey)} per key (429 with Retry-After); a request refused as invalid counts against none of them. With an SMS provider (Twilio) the answer waits for its first try: 400 sms_not_sent when it refuses the number, status queued when it has not accepted the SMS yet.`,
        querystring: keyQuery,
        body: widgetRequestBody,
        response: { 200: envelope(widgetRequestSchema), ...errors },
      },
    },
    async (req, reply) => {
      await everyCall(req, reply);
      noStore(reply);
      // Counted once the request is known to be one the merchant allows: a refused one costs no SMS quota.
      const admit = () =>
        enforce(limiter, reply, [
          [limits.smsPerPhone, `${req.merchant.id}:${req.body.phone_number}`],
          [limits.smsPerAddress, addressKey(req.ip)],
          [limits.smsPerKey, req.merchant.publicKey],
        ]);
      const sent = await sendWidgetPaymentRequest(ctx, req.merchant, req.body.amount, req.body.phone_number, {
        serverMax: limits.maxAmountCents,
        admit,
      });
      return ok(
        sent.status === 'sent' ? 'Payment request sent.' : 'Payment request queued: the SMS will be tried again.',
        sent,
      );
    },
  );

  app.get(
    '/transactions',
    {
      config,
      schema: {
        tags: ['widget backend'],
        summary: 'Completed transactions (the table)',
        description:
          "Date, amount, brand, last four, status; newest first; page is zero-based. No customer data. Only sales paid through the widgets' links (or any pay link: completed_transactions_scope), never other charges; off (403 widget_disabled) unless completed_transactions_enabled, which starts off in production.",
        querystring: keyQuery.extend(widgetTransactionsQuery.shape),
        response: { 200: envelope(widgetTransactionsSchema), ...errors },
      },
    },
    async (req, reply) => {
      await everyCall(req, reply);
      noStore(reply);
      return ok('Completed transactions.', await listWidgetTransactions(ctx, req.merchant, req.query.page ?? 0));
    },
  );
}
