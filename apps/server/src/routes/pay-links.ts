import {
  deletePayLinkBody,
  deletePayLinkResponseSchema,
  errorEnvelopeSchema,
  errorResponses,
  linkIdParams,
  payLinkBody,
  payLinkResponseSchema,
} from '@remit/contract';
import { createPayLink, deletePayLink, type Ctx } from '@remit/core';
import { serializeAsBuilt } from '../plugins/as-built.js';
import { ok } from './envelope.js';
import type { App } from './types.js';

export function payLinkRoutes(app: App, ctx: Ctx) {
  app.post(
    '/pay-link',
    {
      serializerCompiler: serializeAsBuilt,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['pay links'],
        summary: 'Create a hosted payment page and its pending sale',
        description:
          'merchant_key and amount are required. Without order_id the link id is used as the order id. ' +
          'invoice_number: letters and digits, at most 100. At least one of allow_card and allow_ach must be true.',
        body: payLinkBody,
        response: { 200: payLinkResponseSchema, ...errorResponses },
      },
    },
    async (req) => ok('Pay link created successfully.', await createPayLink(req.ctx, req.merchant, req.body)),
  );

  app.delete(
    '/pay-link/:linkId',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['pay links'],
        summary: 'Delete an unpaid pay link; its pending sale is cancelled',
        description:
          'A paid link (card, authorization, or a bank debit even while pending) answers 409 link_not_deletable: void or refund its sale instead.',
        params: linkIdParams,
        body: deletePayLinkBody,
        response: {
          200: deletePayLinkResponseSchema,
          ...errorResponses,
          404: errorEnvelopeSchema,
          409: errorEnvelopeSchema,
        },
      },
    },
    async (req) => {
      const { link_id } = await deletePayLink(ctx, req.merchant, req.params.linkId);
      return { result: true as const, link_id, message: 'Pay link deleted successfully.' };
    },
  );
}
