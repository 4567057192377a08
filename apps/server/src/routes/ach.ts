import { errorEnvelopeSchema, errorResponses, messageEnvelopeSchema, updateAchInput } from '@remit/contract';
import { updateAch, type Ctx } from '@remit/core';
import type { App } from './types.js';

/** Sandbox mock of the bank's answer to an ACH debit (spec: `POST /update-ach`). */
export function achRoutes(app: App, _ctx: Ctx) {
  app.post(
    '/update-ach',
    {
      config: { merchant: 'merchant_key', sandboxOnly: 'POST /update-ach' },
      schema: {
        tags: ['sandbox'],
        summary: 'Approve or decline a pending ACH transaction (sandbox only)',
        description:
          'approved: the transaction completes and settles (ach.update Approved + payment.success), unless the account number ' +
          'ends in 0000, which the simulated bank returns. declined: it becomes returned (is_status 6), a reversal record ' +
          '(type Return) is created and ach.update carries status Declined, message Insufficient Funds and return_transaction_id. ' +
          'Any other new_status: 400. Already resolved: 400. Production: 403 sandbox_only.',
        body: updateAchInput,
        response: {
          200: messageEnvelopeSchema,
          ...errorResponses,
          403: errorEnvelopeSchema.describe('Production: sandbox only'),
          404: errorEnvelopeSchema.describe('No ACH transaction with this transaction_id belongs to this merchant'),
        },
      },
    },
    async (req) => {
      const { message } = await updateAch(req.ctx, req.merchant, req.body);
      return { result: true as const, message };
    },
  );
}
