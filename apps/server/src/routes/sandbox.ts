import {
  advanceClockInput,
  advanceClockResponseSchema,
  errorEnvelopeSchema,
  errorResponses,
  sandboxVerificationInput,
  sandboxVerificationResponseSchema,
  settleInput,
  settleResponseSchema,
} from '@remit/contract';
import { advanceClock, setSandboxVerification, settleNow, type Ctx } from '@remit/core';
import { ok } from './envelope.js';
import type { App } from './types.js';

const sandboxOnly = errorEnvelopeSchema.describe('Production: sandbox only');

/** The sandbox clock and settlement (docs/concepts.md, the sandbox clock), under `/sandbox`. */
export function sandboxClockRoutes(app: App, _ctx: Ctx) {
  app.post(
    '/advance-clock',
    {
      config: { merchant: 'merchant_key', sandboxOnly: 'POST /sandbox/advance-clock' },
      schema: {
        tags: ['sandbox'],
        summary: "Move a merchant's sandbox clock forward",
        description:
          'hours: above 0, at most 8760. The clock drives the 24-hour refund rule and the daily settlement cutoff ' +
          '(REMIT_SETTLEMENT_CUTOFF, default 00:00 UTC).',
        body: advanceClockInput,
        response: {
          200: advanceClockResponseSchema,
          ...errorResponses,
          403: sandboxOnly,
        },
      },
    },
    async (req) => {
      const data = await advanceClock(req.ctx, req.merchant, req.body);
      return ok(`Sandbox clock advanced by ${req.body.hours} hours.`, data);
    },
  );

  app.post(
    '/settle',
    {
      config: { merchant: 'merchant_key', sandboxOnly: 'POST /sandbox/settle' },
      schema: {
        tags: ['sandbox'],
        summary: 'Close a settlement batch now',
        description:
          'Settles every completed, unsettled card payment of the merchant; a settled payment can no longer be voided.',
        body: settleInput,
        response: {
          200: settleResponseSchema,
          ...errorResponses,
          403: sandboxOnly,
        },
      },
    },
    async (req) => {
      const data = await settleNow(req.ctx, req.merchant);
      return ok(`Settled ${data.settled_count} transaction${data.settled_count === 1 ? '' : 's'}.`, data);
    },
  );

  app.post(
    '/merchant-verification',
    {
      config: { merchant: 'merchant_key', sandboxOnly: 'POST /sandbox/merchant-verification' },
      schema: {
        tags: ['sandbox'],
        summary: "Put a sandbox merchant's verification in any state (fires merchant.verification)",
        description:
          "currently_due: requirement names (Stripe's, e.g. individual.verification.document); errors: refused ones with code and reason; restricted: charges held off (payments answer 409 merchant_restricted). Nothing given: cleared.",
        body: sandboxVerificationInput,
        response: { 200: sandboxVerificationResponseSchema, ...errorResponses, 403: sandboxOnly },
      },
    },
    async (req) => {
      const { merchant_key: _key, ...input } = req.body;
      return ok('Sandbox verification set.', await setSandboxVerification(req.ctx, req.merchant, input));
    },
  );
}
