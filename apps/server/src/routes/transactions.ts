import {
  errorEnvelopeSchema,
  errorResponses,
  getTransactionInput,
  listTransactionsInput,
  transactionIdParams,
  transactionListResponseSchema,
  transactionResponseSchema,
} from '@remit/contract';
import { getTransaction, listTransactions, type Ctx } from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { serializeAsBuilt } from '../plugins/as-built.js';
import { ok } from './envelope.js';
import type { App } from './types.js';
import { readCtx } from '../plugins/replica-reads.js';

export function transactionRoutes(app: App, ctx: Ctx) {
  app.get(
    '/merchant/transactions',
    {
      serializerCompiler: serializeAsBuilt,
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['transactions'],
        summary: 'List transactions, newest first (parameters in the JSON body or the query string)',
        description:
          'Parameters come in a JSON body (as the spec shows; send it with GET) or in the query string; when both are given the body wins. ' +
          'Ordered by created_date, newest first, ties by transaction_id. `total` counts every matching transaction, not just this page. ' +
          'Besides the spec fields, each item carries status, is_status, type, payment_method, settled and order_id.',
        querystring: listTransactionsInput,
        response: { 200: transactionListResponseSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { data, total } = await listTransactions(readCtx(ctx, req), req.merchant, req.query);
      return { result: true as const, message: 'Transactions retrieved successfully.', data, total };
    },
  );

  app.get(
    '/merchant/transactions/:transaction_id',
    {
      serializerCompiler: serializeAsBuilt,
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['transactions'],
        summary: 'One transaction of the merchant (merchant_key in the JSON body or the query string)',
        description: "404 transaction_not_found for an unknown id and for another merchant's transaction alike.",
        params: transactionIdParams,
        querystring: getTransactionInput,
        response: { 200: transactionResponseSchema, ...errorResponses, 404: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const txn = await getTransaction(readCtx(ctx, req), req.merchant, req.params.transaction_id);
      return ok('Transaction retrieved successfully.', [txn]);
    },
  );
}
