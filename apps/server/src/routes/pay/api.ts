import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { acceptedLanguages, pickLocale } from '@remit/contract/locales';
import {
  addCardRequestSchema,
  addCardResultSchema,
  addCardViewSchema,
  challengeAnswerSchema,
  errorEnvelopeSchema,
  linkIntentRequestSchema,
  payLinkViewSchema,
  payRequestSchema,
  payResultSchema,
  type PayResult,
  paymentIntentReportSchema,
  setupIntentReportSchema,
  stripeIntentSchema,
} from '@remit/contract';
import {
  addCardFromLink,
  addCardView,
  addressKey,
  answerChallenge,
  cardIntent,
  linkIntent,
  payLink,
  payLinkView,
  reportCardIntent,
  reportLinkIntent,
  type Ctx,
} from '@remit/core';
import { registerIdempotency } from '../../plugins/idempotency.js';
import { enforceRateLimit } from '../../plugins/rate-limit.js';
import type { App } from '../types.js';
import { setApiHeaders } from './headers.js';

/**
 * The pay page's own calls, public: the unguessable link id (or add-card token) in the path is
 * the only authorization, and each route can only read that link or pay it. Shapes are
 * `@remit/contract`'s; pay and add-card POSTs need an `Idempotency-Key`, scoped by the link.
 */

const linkParams = z.object({ linkId: z.string().max(100) });
const challengeParams = linkParams.extend({ challengeId: z.string().max(100) });
const tokenParams = z.object({ token: z.string().max(100) });
const KEY_RULE = 'is required: 1 to 255 characters, one key per payment attempt';
const idempotencyHeader = z.object({
  'idempotency-key': z
    .string({ error: KEY_RULE })
    .min(1, KEY_RULE)
    .max(255, KEY_RULE)
    .describe('one key per payment attempt, made by the page'),
});

const errors = {
  400: errorEnvelopeSchema,
  402: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  410: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
};
const config = { public: true } as const;
const tags = ['pay page'];
/** No credentials: the link id in the path is the authorization. */
const security: never[] = [];

/** Pay by card, or save a card: the calls that send a card number. */
function sendsCard(req: FastifyRequest): boolean {
  const url = req.routeOptions.url;
  if (url === '/pay/api/cards/:token') return true;
  const body = req.body as { method?: unknown } | null | undefined;
  return url === '/pay/api/links/:linkId/pay' && typeof body === 'object' && body !== null && body.method === 'card';
}

/** A double click waits this long for the first attempt's answer instead of getting a 409. */
const WAIT_FOR_FIRST_MS = 10_000;

/** The pay page's language, which its calls send as their Accept-Language (any browser's own otherwise). */
const customerLocale = (req: { headers: { 'accept-language'?: string } }) =>
  pickLocale(null, acceptedLanguages(req.headers['accept-language']));

/**
 * 202 for a payment accepted but not done (the processor's answer never came, or the bank account
 * waits for microdeposits), as an API charge answers; 200 otherwise. One rule for every pay call.
 */
function payResultCode(result: PayResult): 200 | 202 {
  return result.status === 'processing' || result.status === 'bank_verification' ? 202 : 200;
}

export function payApiRoutes(app: App, ctx: Ctx) {
  app.register(
    async (api: App) => {
      api.addHook('onRequest', async (req, reply) => {
        setApiHeaders(reply);
        // Card testing: every call counts per address, every write per link (or card token).
        await enforceRateLimit(
          ctx,
          reply,
          app.rateLimits.payPerAddress,
          addressKey(req.ip),
          'Too many payment page requests from this address',
        );
        const p = req.params as { linkId?: string; token?: string };
        const link = p.linkId ? `pay:${p.linkId}` : p.token ? `card:${p.token}` : null;
        if (req.method === 'POST' && link) {
          await enforceRateLimit(
            ctx,
            reply,
            app.rateLimits.payWritesPerLink,
            link,
            'Too many payment attempts on this link',
          );
        }
      });
      // A card tester spreads numbers over many links: every card sent counts per address, across
      // links, before the idempotency claim and before the network sees it. Bank payments are not counted.
      api.addHook('preValidation', async (req, reply) => {
        if (req.method === 'POST' && sendsCard(req)) {
          await enforceRateLimit(
            ctx,
            reply,
            app.rateLimits.payCardsPerAddress,
            addressKey(req.ip),
            'Too many card payment attempts from this address',
          );
        }
      });
      registerIdempotency(api, ctx, {
        required: true,
        forgetInvalid: true,
        sensitiveBodies: true,
        waitForFirstMs: WAIT_FOR_FIRST_MS,
        scope: (req) => {
          const p = req.params as { linkId?: string; token?: string };
          return p.linkId ? `pay:${p.linkId}` : p.token ? `card:${p.token}` : null;
        },
      });

      api.get(
        '/links/:linkId',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'The link as the pay page shows it',
            params: linkParams,
            response: { 200: payLinkViewSchema, ...errors },
          },
        },
        async (req) => payLinkView(ctx, req.params.linkId),
      );

      api.post(
        '/links/:linkId/pay',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'Pay the link by card or bank account',
            description:
              'A card that needs 3-D Secure (or any card on a require_3ds link) answers {status:"challenge"}; nothing is charged until the challenge is completed.',
            params: linkParams,
            headers: idempotencyHeader,
            body: payRequestSchema,
            response: { 200: payResultSchema, 202: payResultSchema, ...errors },
          },
        },
        async (req, reply) => {
          const result = await payLink(
            req.ctx,
            req.params.linkId,
            req.body,
            { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') },
            customerLocale(req),
          );
          return reply.code(payResultCode(result)).send(result);
        },
      );

      api.post(
        '/links/:linkId/challenges/:challengeId',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'Answer the sandbox 3-D Secure challenge',
            params: challengeParams,
            headers: idempotencyHeader,
            body: challengeAnswerSchema,
            response: { 200: payResultSchema, ...errors },
          },
        },
        async (req) =>
          answerChallenge(req.ctx, req.params.linkId, req.params.challengeId, req.body.outcome, customerLocale(req)),
      );

      api.post(
        '/links/:linkId/intent',
        {
          config,
          schema: {
            tags,
            security,
            summary: "The link's Stripe PaymentIntent, for the page to confirm with Stripe.js",
            description:
              "Stripe only. Created once and reused across page loads, tabs and retries: a link has one PaymentIntent. `{method}` (card or ach, the tab picked in Stripe's fields) sets its amount and application fee to the link's total for that method before it is confirmed. 409 payment_processing while a payment on it is in progress.",
            params: linkParams,
            headers: idempotencyHeader,
            body: linkIntentRequestSchema,
            response: { 200: stripeIntentSchema, ...errors },
          },
        },
        async (req) => linkIntent(req.ctx, req.params.linkId, req.body.method),
      );

      api.post(
        '/links/:linkId/intent/report',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'The page confirmed the PaymentIntent: read it from Stripe and record it',
            description:
              'Answers paid (200), processing or bank_verification (202); a declined payment answers 402 and the link stays open.',
            params: linkParams,
            headers: idempotencyHeader,
            body: paymentIntentReportSchema,
            response: { 200: payResultSchema, 202: payResultSchema, ...errors },
          },
        },
        async (req, reply) => {
          const result = await reportLinkIntent(req.ctx, req.params.linkId, req.body.payment_intent);
          return reply.code(payResultCode(result)).send(result);
        },
      );

      api.post(
        '/cards/:token/intent',
        {
          config,
          schema: {
            tags,
            security,
            summary: "The card request's Stripe SetupIntent, for the add-card page to confirm with Stripe.js",
            params: tokenParams,
            headers: idempotencyHeader,
            body: z.object({}).strict(),
            response: { 200: stripeIntentSchema, ...errors },
          },
        },
        async (req) => cardIntent(req.ctx, req.params.token),
      );

      api.post(
        '/cards/:token/intent/report',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'The page confirmed the SetupIntent: read it from Stripe and keep the card',
            params: tokenParams,
            headers: idempotencyHeader,
            body: setupIntentReportSchema,
            response: { 200: addCardResultSchema, ...errors },
          },
        },
        async (req) => reportCardIntent(req.ctx, req.params.token, req.body.setup_intent),
      );

      api.get(
        '/cards/:token',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'The add-card page of a card request',
            params: tokenParams,
            response: { 200: addCardViewSchema, ...errors },
          },
        },
        async (req) => addCardView(ctx, req.params.token),
      );

      api.post(
        '/cards/:token',
        {
          config,
          schema: {
            tags,
            security,
            summary: 'Store a card on the customer of a card request (no charge)',
            params: tokenParams,
            headers: idempotencyHeader,
            body: addCardRequestSchema,
            response: { 200: addCardResultSchema, ...errors },
          },
        },
        async (req) => addCardFromLink(req.ctx, req.params.token, req.body),
      );
    },
    { prefix: '/pay/api' },
  );
}
