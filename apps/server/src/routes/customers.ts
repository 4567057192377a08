import {
  addCustomerInput,
  addCustomerResponseSchema,
  chargeInput,
  chargeResponseSchema,
  customerListResponseSchema,
  customerPathParams,
  customerResponseSchema,
  declineEnvelopeSchema,
  errorEnvelopeSchema,
  errorResponses,
  listCustomersInput,
  merchantKeyInput,
  cardRequestInput,
  messageEnvelopeSchema,
} from '@remit/contract';
import {
  addCustomer,
  chargeCustomer,
  chargeMessage,
  getCustomer,
  listCustomers,
  requestCard,
  type Ctx,
} from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { serializeAsBuilt } from '../plugins/as-built.js';
import { ok } from './envelope.js';
import type { App } from './types.js';

const customerNotFound = errorEnvelopeSchema.describe('Customer not found (unknown, or another merchant’s)');

export function customerRoutes(app: App, ctx: Ctx) {
  app.post(
    '/customers/add',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'Store a customer (card and bank_account accepted in sandbox only)',
        body: addCustomerInput,
        response: { 200: addCustomerResponseSchema, ...errorResponses },
      },
    },
    async (req) => ok('Customer added successfully.', await addCustomer(req.ctx, req.merchant, req.body)),
  );

  app.get(
    '/customers',
    {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary:
          'List customers, newest first (JSON body or query string; page zero-based, perPage default 20, max 100)',
        querystring: listCustomersInput,
        response: { 200: customerListResponseSchema, ...errorResponses },
      },
    },
    async (req) => ok('Customers retrieved successfully.', await listCustomers(ctx, req.merchant, req.query)),
  );

  app.get(
    '/customers/:customerId',
    {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'One customer (merchant_key in the JSON body or the query string)',
        params: customerPathParams,
        querystring: merchantKeyInput,
        response: { 200: customerResponseSchema, ...errorResponses, 404: customerNotFound },
      },
    },
    async (req) => ok('Customer retrieved successfully.', await getCustomer(ctx, req.merchant, req.params.customerId)),
  );

  app.post(
    '/customers/request-card/:customerId',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'Send the customer a link to the hosted add-card page by SMS and/or email',
        params: customerPathParams,
        body: cardRequestInput,
        response: {
          200: messageEnvelopeSchema,
          ...errorResponses,
          404: customerNotFound,
        },
      },
    },
    async (req) => {
      const r = await requestCard(req.ctx, req.merchant, req.params.customerId, req.body.locale);
      return { result: true as const, message: r.message };
    },
  );

  app.post(
    '/customers/charge/:customerId',
    {
      serializerCompiler: serializeAsBuilt,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers', 'payments'],
        summary: "Charge the customer's default payment method (preAuth: true holds the amount instead)",
        params: customerPathParams,
        body: chargeInput,
        response: {
          200: chargeResponseSchema,
          202: chargeResponseSchema.describe(
            'The processor did not confirm in time: the transaction is processing (is_status 7) until Remit asks it',
          ),
          ...errorResponses,
          402: declineEnvelopeSchema,
          404: customerNotFound,
        },
      },
    },
    async (req, reply) => {
      const data = await chargeCustomer(req.ctx, req.merchant, req.params.customerId, req.body);
      if (data.status === 'processing') reply.code(202);
      return { result: true as const, message: chargeMessage(data), transaction_id: data.transaction_id, data };
    },
  );
}
