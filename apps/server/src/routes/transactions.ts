import { z } from 'zod';
import {
  getTransaction,
  getTransactionInput,
  listTransactions,
  listTransactionsInput,
  type Ctx,
} from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { errorResponses, errorSchema, ok } from './envelope.js';
import type { App } from './types.js';

const extras = {
  status: z.string(),
  is_status: z.number().int(),
  type: z.string(),
  payment_method: z.string(),
  settled: z.boolean(),
  order_id: z.string().describe("'' when none"),
};

const listItem = z.object({
  transaction_id: z.string(),
  amount: z.string(),
  created_date: z.string(),
  fee_percentage: z.string(),
  net_amount: z.number(),
  other_details: z.object({ auth_code: z.string(), card_brand: z.string(), last_four: z.string() }),
  ...extras,
});

const detail = z.object({
  transaction_id: z.string(),
  amount: z.string(),
  transaction_date: z.string(),
  fee_percentage: z.string(),
  net_amount: z.number(),
  other_details: z.object({ authcode: z.string(), cardType: z.string(), lastFourDigits: z.string() }),
  ...extras,
});

export function transactionRoutes(app: App, ctx: Ctx) {
  app.get(
    '/merchant/transactions',
    {
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
        response: {
          200: z.object({ result: z.literal(true), message: z.string(), data: z.array(listItem), total: z.number().int() }),
          ...errorResponses,
        },
      },
    },
    async (req) => {
      const { data, total } = await listTransactions(ctx, req.merchant, req.query);
      return { result: true as const, message: 'Transactions retrieved successfully.', data, total };
    },
  );

  app.get(
    '/merchant/transactions/:transaction_id',
    {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['transactions'],
        summary: 'One transaction of the merchant (merchant_key in the JSON body or the query string)',
        description: "404 transaction_not_found for an unknown id and for another merchant's transaction alike.",
        params: z.object({ transaction_id: z.string().min(1).max(200) }),
        querystring: getTransactionInput,
        response: {
          200: z.object({ result: z.literal(true), message: z.string(), data: z.array(detail) }),
          ...errorResponses,
          404: errorSchema,
        },
      },
    },
    async (req) => {
      const txn = await getTransaction(ctx, req.merchant, req.params.transaction_id);
      return ok('Transaction retrieved successfully.', [txn]);
    },
  );
}
