import {
  errorEnvelopeSchema,
  errorResponses,
  moneyRecordResponseSchema,
  preauthCaptureResponseSchema,
  preauthIdInput,
  preauthUpdateResponseSchema,
  updatePreauthInput,
} from '@remit/contract';
import { capturePreauth, updatePreauth, voidPreauth, type Ctx } from '@remit/core';
import { serializeAsBuilt } from '../plugins/as-built.js';
import { ok } from './envelope.js';
import type { App } from './types.js';

const notFound = errorEnvelopeSchema.describe('No preauthorization with this transaction_id belongs to this merchant');
const refusals =
  'transaction_id must be the original preauthorization ID (any other transaction: 400 not_original_preauth); ' +
  'a captured or voided preauthorization is refused with 400.';

/** Preauthorizations: update (compare-and-set on the held amount), capture, void. */
export function preauthRoutes(app: App, _ctx: Ctx) {
  app.post(
    '/preauth/update',
    {
      serializerCompiler: serializeAsBuilt,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['preauth'],
        summary: 'Change the authorized amount of a preauthorization',
        description:
          `last_authorized_amount must equal the amount on record, else 400 "Amount mismatch" (compare-and-set). ` +
          `An increase fires preauth.increment, a decrease preauth.decrement; equal amounts get 400. ${refusals}`,
        body: updatePreauthInput,
        response: { 200: preauthUpdateResponseSchema, ...errorResponses, 404: notFound },
      },
    },
    async (req) => ok('Preauthorization updated.', await updatePreauth(req.ctx, req.merchant, req.body)),
  );

  app.post(
    '/preauth/capture',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['preauth'],
        summary: 'Capture the authorized amount',
        description: `The preauthorization becomes a completed payment; fires preauth.charge and payment.success. ${refusals}`,
        body: preauthIdInput,
        response: { 200: preauthCaptureResponseSchema, ...errorResponses, 404: notFound },
      },
    },
    async (req) => ok('Preauthorization captured.', await capturePreauth(req.ctx, req.merchant, req.body)),
  );

  app.post(
    '/preauth/void',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['preauth'],
        summary: 'Void (release) a preauthorization',
        description: `Creates a void record for the authorized amount (its net cancels the preauthorization's) and fires preauth.void. ${refusals}`,
        body: preauthIdInput,
        response: { 200: moneyRecordResponseSchema, ...errorResponses, 404: notFound },
      },
    },
    async (req) => ok('Preauthorization voided.', await voidPreauth(req.ctx, req.merchant, req.body)),
  );
}
