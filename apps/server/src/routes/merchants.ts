import { z } from 'zod';
import {
  approveMerchant,
  getMerchantForOwner,
  listMerchants,
  onboardingSchema,
  onboardMerchant,
  type Ctx,
} from '@remit/core';
import { envelopeSchema, errorResponses, errorSchema, ok } from './envelope.js';
import type { App } from './types.js';

const merchantSchema = z.object({
  businessname: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  join_date: z.string().describe('ISO 8601 UTC with milliseconds'),
  merchant_id: z.string().describe('`m_` merchant GUID (not the API key)'),
  phonenumber: z.string(),
  public_data: z.object({ public_key: z.string() }),
  website: z.string(),
  status: z.enum(['pending', 'approved']).describe('`pending` after onboarding, `approved` after approval'),
});

const onboardingResultSchema = z.object({
  businessname: z.string(),
  email: z.string(),
  merchant_key: z.string().describe('Secret merchant API key; also readable at GET /merchant/{merchant_id}'),
  public_key: z.string().describe('Merchant public key for widgets'),
});

/** The webhook-management style envelope the spec gives `/approve-merchant`. */
const statusErrorSchema = z.object({
  status: z.literal(false),
  message: z.string(),
  code: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  request_id: z.string(),
});

export function merchantRoutes(app: App, ctx: Ctx) {
  app.post(
    '/onboarding',
    {
      schema: {
        tags: ['merchants'],
        summary: 'Onboard a merchant in one submission (starts pending)',
        body: onboardingSchema,
        response: { 201: envelopeSchema(onboardingResultSchema), ...errorResponses },
      },
    },
    async (req, reply) => {
      const r = await onboardMerchant(ctx, req.client.id, req.body);
      const data = { businessname: r.businessname, email: r.email, merchant_key: r.merchant_key, public_key: r.public_key };
      return reply.status(201).send(ok('Merchant onboarded successfully; it is pending approval.', data));
    },
  );

  app.get(
    '/merchant',
    {
      schema: {
        tags: ['merchants'],
        summary: "List the client's merchants, newest first",
        response: { 200: envelopeSchema(z.array(merchantSchema)), ...errorResponses },
      },
    },
    async (req) => ok('Merchants retrieved successfully.', await listMerchants(ctx, req.client.id)),
  );

  app.get(
    '/merchant/:merchant_id',
    {
      schema: {
        tags: ['merchants'],
        summary: 'Owner call: one merchant of this client, with its merchant_key',
        params: z.object({ merchant_id: z.string().min(1).max(100) }),
        response: {
          200: envelopeSchema(merchantSchema.extend({ merchant_key: z.string() })),
          ...errorResponses,
          404: errorSchema,
        },
      },
    },
    async (req) => ok('Merchant retrieved successfully.', await getMerchantForOwner(ctx, req.client.id, req.params.merchant_id)),
  );

  app.post(
    '/approve-merchant',
    {
      config: { envelope: 'status' },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: approve a pending merchant (fires merchant.approval)',
        body: z.object({ merchant_id: z.string().trim().min(1, 'is required').max(100) }),
        response: {
          200: z.object({ status: z.literal(true), message: z.string() }),
          400: statusErrorSchema,
          401: statusErrorSchema,
          403: statusErrorSchema,
          404: statusErrorSchema,
        },
      },
    },
    async (req) => {
      const r = await approveMerchant(ctx, req.client.id, req.body.merchant_id);
      return {
        status: true as const,
        message: r.already_approved ? 'Merchant is already approved.' : 'Merchant approved successfully.',
      };
    },
  );
}
