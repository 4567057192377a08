import {
  approveMerchantBody,
  errorEnvelopeSchema,
  errorResponses,
  merchantIdParams,
  merchantListResponseSchema,
  merchantResponseSchema,
  onboardingResponseSchema,
  onboardingSchema,
  statusEnvelopeSchema,
  statusErrorEnvelopeSchema,
  verificationLinkBody,
  verificationLinkResponseSchema,
} from '@remit/contract';
import {
  approveMerchant,
  createVerificationLink,
  getMerchantForOwner,
  listMerchants,
  onboardMerchant,
  VERIFICATION_LINK_DAYS,
  type Ctx,
} from '@remit/core';
import { ok } from './envelope.js';
import type { App } from './types.js';
import { readCtx } from '../plugins/replica-reads.js';

export function merchantRoutes(app: App, ctx: Ctx) {
  app.post(
    '/onboarding',
    {
      schema: {
        tags: ['merchants'],
        summary: 'Onboard a merchant in one submission (starts pending)',
        body: onboardingSchema,
        response: { 201: onboardingResponseSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const r = await onboardMerchant(req.ctx, req.client.id, req.body);
      const data = {
        businessname: r.businessname,
        email: r.email,
        merchant_key: r.merchant_key,
        public_key: r.public_key,
        agreement_link: r.agreement_link,
      };
      return reply.status(201).send(ok('Merchant onboarded successfully; it is pending approval.', data));
    },
  );

  app.get(
    '/merchant',
    {
      schema: {
        tags: ['merchants'],
        summary: "List the client's merchants, newest first",
        response: { 200: merchantListResponseSchema, ...errorResponses },
      },
    },
    async (req) => ok('Merchants retrieved successfully.', await listMerchants(readCtx(ctx, req), req.client.id)),
  );

  app.get(
    '/merchant/:merchant_id',
    {
      schema: {
        tags: ['merchants'],
        summary: 'Owner call: one merchant of this client, with its merchant_key',
        params: merchantIdParams,
        response: { 200: merchantResponseSchema, ...errorResponses, 404: errorEnvelopeSchema },
      },
    },
    async (req) =>
      ok('Merchant retrieved successfully.', await getMerchantForOwner(ctx, req.client.id, req.params.merchant_id)),
  );

  app.post(
    '/merchant/verification-link',
    {
      schema: {
        tags: ['merchants'],
        summary: 'A link where the merchant gives the processor what it still needs',
        description: `On Remit's origin, valid for ${VERIFICATION_LINK_DAYS} days. Each visit opens a fresh Stripe Account Link for what is due (303); the merchant comes back to a Remit page that reads the account again and shows what is still due, then continues to return_url. In the sandbox it opens Remit's own page of what is due.`,
        body: verificationLinkBody,
        response: { 201: verificationLinkResponseSchema, ...errorResponses, 404: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const link = await createVerificationLink(req.ctx, req.client.id, req.body);
      return reply.status(201).send(ok('Verification link created.', link));
    },
  );

  app.post(
    '/approve-merchant',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: approve a pending merchant (fires merchant.approval)',
        body: approveMerchantBody,
        response: {
          200: statusEnvelopeSchema,
          400: statusErrorEnvelopeSchema,
          401: statusErrorEnvelopeSchema,
          403: statusErrorEnvelopeSchema,
          404: statusErrorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const r = await approveMerchant(req.ctx, req.client.id, req.body.merchant_id);
      return {
        status: true as const,
        message: r.already_approved ? 'Merchant is already approved.' : 'Merchant approved successfully.',
      };
    },
  );
}
