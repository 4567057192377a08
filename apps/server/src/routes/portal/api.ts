import {
  embedPolicySchema,
  onboardingSchema,
  portalClockBody,
  portalDeliveriesSchema,
  portalDeliveryParams,
  portalDoneSchema,
  portalMerchantParams,
  portalMerchantSchema,
  portalMerchantsSchema,
  portalMessageParams,
  portalMessagesSchema,
  portalPayLinkBody,
  portalPayLinkSchema,
  portalRefundBody,
  portalSessionSchema,
  portalTestEventSchema,
  portalTransactionActionParams,
  portalTransactionsSchema,
  portalWebhookSchema,
  signInBody,
  updateWebhookUrlBody,
} from '@remit/contract';
import {
  addressKey,
  embedPolicy,
  exampleOnboarding,
  isRemitError,
  portalAdvanceClock,
  portalApprove,
  portalDeliveries,
  portalMerchant,
  portalMerchants,
  portalMessageHtml,
  portalMessages,
  portalOnboard,
  portalPayLink,
  portalSettle,
  portalTransactionAction,
  portalTransactions,
  portalWebhook,
  resumeSession,
  retryDelivery,
  sendTestEvent,
  signIn,
  signOut,
  updateWebhookUrl,
  type Ctx,
  type SignInLimit,
} from '@remit/core';
import * as z from 'zod';
import type { App } from '../types.js';
import { clearSessionCookie, requireSession, sessionToken, setSessionCookie } from './session.js';
import { setApiHeaders } from './headers.js';
import { sharedSignInLimit } from './sign-in-limit.js';
import { builtLoader } from '../widget-assets.js';
import { readCtx } from '../../plugins/replica-reads.js';

const hide = { hide: true } as const;
const config = { public: true } as const;

/**
 * `/portal/api/*` (sandbox only): sign-in and sign-out, then everything the portal shows and does,
 * each a call of one core operation for the signed-in client. Changes need the CSRF token.
 */
export function portalApiRoutes(app: App, ctx: Ctx) {
  const limit: SignInLimit = sharedSignInLimit(ctx, app.rateLimits);
  // Synchronous: it runs on every answer of the server (no promise per request).
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.url.startsWith('/portal/api/')) setApiHeaders(reply);
    done(null, payload);
  });

  app.post(
    '/portal/api/session',
    { config, schema: { ...hide, body: signInBody, response: { 201: portalSessionSchema } } },
    async (req, reply) => {
      try {
        const { token, session } = await signIn(ctx, req.body, { address: addressKey(req.ip) }, limit);
        setSessionCookie(req, reply, token);
        return reply.status(201).send(session);
      } catch (err) {
        const after = isRemitError(err) ? err.extra?.retry_after : undefined;
        if (typeof after === 'number') reply.header('retry-after', String(after));
        throw err;
      }
    },
  );

  app.get(
    '/portal/api/session',
    { config, schema: { ...hide, response: { 200: portalSessionSchema } } },
    async (req) => {
      return (await resumeSession(ctx, sessionToken(req))).session;
    },
  );

  // onRequest: a forged request is refused before its body is even read.
  const guard = { config, onRequest: requireSession(ctx) };
  // What the open portal asks every 2 s: its request lines go to the log at debug.
  const poll = { ...guard, config: { ...config, quietLog: true } };

  app.delete('/portal/api/session', { ...guard, schema: hide }, async (req, reply) => {
    await signOut(ctx, sessionToken(req));
    clearSessionCookie(req, reply);
    return reply.status(204).send();
  });

  // Merchants.
  app.get(
    '/portal/api/merchants',
    { ...poll, schema: { ...hide, response: { 200: portalMerchantsSchema } } },
    async (req) => ({
      merchants: await portalMerchants(readCtx(ctx, req), req.portalClientId),
    }),
  );

  app.get('/portal/api/onboarding-example', { ...guard, schema: hide }, async () => {
    const name = `Demo Store ${Math.floor(Math.random() * 9000) + 1000}`;
    const example = exampleOnboarding({ business_name: name, email: 'owner@demo-store.example' });
    return { ...example, BusinessInfo: { ...example.BusinessInfo, dba: name, website: 'https://demo-store.example' } };
  });

  app.post(
    '/portal/api/merchants',
    { ...guard, schema: { ...hide, body: onboardingSchema, response: { 201: portalMerchantSchema } } },
    async (req, reply) => reply.status(201).send({ merchant: await portalOnboard(ctx, req.portalClientId, req.body) }),
  );

  app.post(
    '/portal/api/merchants/:merchant_id/approve',
    { ...guard, schema: { ...hide, params: portalMerchantParams, response: { 200: portalMerchantSchema } } },
    async (req) => ({ merchant: await portalApprove(ctx, req.portalClientId, req.params.merchant_id) }),
  );

  // Webhooks.
  app.get(
    '/portal/api/webhook',
    { ...guard, schema: { ...hide, response: { 200: portalWebhookSchema } } },
    async (req) => portalWebhook(ctx, req.portalClientId),
  );

  app.put(
    '/portal/api/webhook',
    { ...guard, schema: { ...hide, body: updateWebhookUrlBody, response: { 200: portalWebhookSchema } } },
    async (req) => {
      await updateWebhookUrl(ctx, req.portalClientId, req.body);
      return portalWebhook(ctx, req.portalClientId);
    },
  );

  app.get(
    '/portal/api/deliveries',
    { ...poll, schema: { ...hide, response: { 200: portalDeliveriesSchema } } },
    async (req) => portalDeliveries(readCtx(ctx, req), req.portalClientId),
  );

  app.post(
    '/portal/api/deliveries/:id/retry',
    { ...guard, schema: { ...hide, params: portalDeliveryParams, response: { 200: portalDoneSchema } } },
    async (req) => {
      const d = await retryDelivery(ctx, req.portalClientId, req.params.id);
      return {
        message:
          d.status === 'disabled'
            ? 'The webhook URL is disabled (the receiver answered 410); set it again to send.'
            : `Retrying the ${d.event_type} delivery now.`,
      };
    },
  );

  app.post(
    '/portal/api/test-event',
    { ...guard, schema: { ...hide, response: { 201: portalTestEventSchema } } },
    async (req, reply) => reply.status(201).send(await sendTestEvent(ctx, req.portalClientId)),
  );

  // The sandbox inbox.
  app.get(
    '/portal/api/messages',
    {
      ...poll,
      schema: {
        ...hide,
        querystring: z.object({ merchant_id: z.string().max(100).optional() }),
        response: { 200: portalMessagesSchema },
      },
    },
    async (req) => {
      const merchant = req.query.merchant_id
        ? await portalMerchant(ctx, req.portalClientId, req.query.merchant_id)
        : null;
      return portalMessages(ctx, req.portalClientId, merchant);
    },
  );

  app.get(
    '/portal/api/messages/:id/html',
    { ...guard, schema: { ...hide, params: portalMessageParams } },
    async (req, reply) => {
      const html = await portalMessageHtml(ctx, req.portalClientId, req.params.id);
      // Shown in a sandboxed frame of the portal: no script, no form, no plugin, no request but images.
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox",
        )
        .send(html);
    },
  );

  // Transactions and the sandbox tools of one merchant.
  const merchantRoute = { ...guard, schema: { ...hide, params: portalMerchantParams } };
  const merchantOf = (req: { portalClientId: string; params: { merchant_id: string } }) =>
    portalMerchant(ctx, req.portalClientId, req.params.merchant_id);

  // The pinned tag and the page's policy, as GET /merchant/embed-policy gives them, to copy.
  app.get(
    '/portal/api/merchants/:merchant_id/embed-policy',
    { ...merchantRoute, schema: { ...merchantRoute.schema, response: { 200: embedPolicySchema } } },
    async (req) => {
      const merchant = await merchantOf(req);
      return embedPolicy(ctx.publicUrl, merchant.publicKey, await builtLoader());
    },
  );

  app.get(
    '/portal/api/merchants/:merchant_id/transactions',
    {
      ...merchantRoute,
      config: poll.config,
      schema: { ...merchantRoute.schema, response: { 200: portalTransactionsSchema } },
    },
    async (req) => portalTransactions(readCtx(ctx, req), await merchantOf(req)),
  );

  app.post(
    '/portal/api/merchants/:merchant_id/pay-links',
    {
      ...merchantRoute,
      schema: { ...merchantRoute.schema, body: portalPayLinkBody, response: { 201: portalPayLinkSchema } },
    },
    async (req, reply) => reply.status(201).send(await portalPayLink(ctx, await merchantOf(req), req.body)),
  );

  app.post(
    '/portal/api/merchants/:merchant_id/transactions/:transaction_id/:action',
    {
      ...guard,
      schema: {
        ...hide,
        params: portalTransactionActionParams,
        body: portalRefundBody.partial().nullish(),
        response: { 200: portalDoneSchema },
      },
    },
    async (req) => {
      const merchant = await merchantOf(req);
      return portalTransactionAction(ctx, merchant, req.params.transaction_id, req.params.action, req.body?.amount);
    },
  );

  app.post(
    '/portal/api/merchants/:merchant_id/advance-clock',
    {
      ...merchantRoute,
      schema: { ...merchantRoute.schema, body: portalClockBody, response: { 200: portalDoneSchema } },
    },
    async (req) => portalAdvanceClock(ctx, await merchantOf(req), req.body),
  );

  app.post(
    '/portal/api/merchants/:merchant_id/settle',
    { ...merchantRoute, schema: { ...merchantRoute.schema, response: { 200: portalDoneSchema } } },
    async (req) => portalSettle(ctx, await merchantOf(req)),
  );
}
