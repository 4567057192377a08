import {
  errorEnvelopeSchema,
  errorResponses,
  moneyRecordResponseSchema,
  refundInput,
  voidInput,
} from '@remit/contract';
import { refundTransaction, voidTransaction, type Ctx } from '@remit/core';
import { serializeAsBuilt } from '../plugins/as-built.js';
import { ok } from './envelope.js';
import type { App } from './types.js';

const notFound = errorEnvelopeSchema.describe('No transaction with this transaction_id belongs to this merchant');

/** Voids and refunds (spec: `POST /order/sales-void`, `POST /order/sales-return`). JSON or form bodies. */
export function orderRoutes(app: App, _ctx: Ctx) {
  app.post(
    '/order/sales-void',
    {
      serializerCompiler: serializeAsBuilt,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['orders'],
        summary: 'Void a completed, unsettled transaction',
        description:
          'Voids the whole remaining (unrefunded) amount; `amount` is accepted and ignored. JSON or application/x-www-form-urlencoded. ' +
          'A settled transaction gets 400 "The transaction has been settled, a void is not allowed."; an unknown one 404; ' +
          'one that is not completed (pending, authorized, declined, voided, fully refunded) 400.',
        body: voidInput,
        response: {
          200: moneyRecordResponseSchema.describe('The void record (type Void); linked_txn_id is the original'),
          ...errorResponses,
          404: notFound,
        },
      },
    },
    async (req) => {
      const { message, data } = await voidTransaction(req.ctx, req.merchant, req.body);
      return ok(message, data);
    },
  );

  app.post(
    '/order/sales-return',
    {
      serializerCompiler: serializeAsBuilt,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['orders'],
        summary: 'Refund a completed transaction, fully or partly',
        description:
          'Partial and repeated refunds up to the original amount. A full-amount refund of a transaction older than 24 hours ' +
          '(on the merchant sandbox clock) is performed as a void: the record has type Void and `payment.void` fires. ' +
          'Unknown transaction: 404 "Payment method not found."; not completed: 400 with the same message.',
        body: refundInput,
        response: {
          200: moneyRecordResponseSchema.describe('The refund record (type Refund, or Void under the 24-hour rule)'),
          ...errorResponses,
          404: notFound,
        },
      },
    },
    async (req) => {
      const { message, data } = await refundTransaction(req.ctx, req.merchant, req.body);
      return ok(message, data);
    },
  );
}
