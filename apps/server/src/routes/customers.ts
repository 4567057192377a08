import { z } from 'zod';
import {
  addCustomer,
  addCustomerInput,
  chargeCustomer,
  chargeInput,
  chargeMessage,
  customerPathParams,
  getCustomer,
  listCustomers,
  listCustomersInput,
  merchantKeyInput,
  requestCard,
  type Ctx,
} from '@remit/core';
import { mergeGetBodyIntoQuery } from '../plugins/get-body.js';
import { envelopeSchema, errorResponses, errorSchema, ok } from './envelope.js';
import type { App } from './types.js';

const paymentMethodSummary = z.object({
  type: z.enum(['card', 'bank_account']),
  brand: z.string().describe("card brand; '' for a bank account"),
  last_four: z.string(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
  account_type: z.string().nullable().describe('checking or savings; null for a card'),
  is_default: z.boolean().describe('the method charges use'),
});

const customerItem = z.object({
  customer_id: z.number().int().positive(),
  first_name: z.string(),
  last_name: z.string().describe("'' when none"),
  email: z.string().describe("'' when none"),
  phone_number: z.string().describe("E.164; '' when none"),
  created_date: z.string().describe('ISO 8601 UTC with milliseconds'),
  payment_methods: z.array(paymentMethodSummary).describe('default first; numbers are never returned'),
});

const chargeData = z
  .object({
    transaction_id: z.string(),
    amount: z.string().describe('decimal text, two places'),
    status: z.string().describe('completed, authorized (preAuth) or pending (ACH)'),
    is_status: z.number().int().describe('2 completed, 1 authorized (preAuth), 0 pending (ACH)'),
    type: z.string().describe('Sale or PreAuth'),
    payment_method: z.string().describe('card or ach'),
    auth_code: z.string().describe("'' for ACH"),
    card_brand: z.string().describe('card brand, or ACH'),
    last_four: z.string(),
    fee_amount: z.number(),
    fee_percentage: z.string().describe('decimal text, seven places'),
    net_amount: z.number(),
    order_id: z.string(),
    customer_id: z.number().int(),
    created_date: z.string(),
  })
  .describe('The new transaction (the spec does not show this shape)');

const customerNotFound = errorSchema.describe('Customer not found (unknown, or another merchant’s)');
const declined = errorSchema
  .extend({ transaction_id: z.string().describe('the declined transaction, recorded with is_status 3') })
  .describe('Card declined; `code` is card_declined, insufficient_funds, expired_card, incorrect_cvc or authentication_required');

export function customerRoutes(app: App, ctx: Ctx) {
  app.post(
    '/customers/add',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'Store a customer (card and bank_account accepted in sandbox only)',
        body: addCustomerInput,
        response: {
          200: envelopeSchema(
            z.object({
              customer_id: z.number().int().positive(),
              customer_email: z.string().describe("'' when none"),
              customer_phone: z.string().describe("E.164; '' when none"),
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (req) => ok('Customer added successfully.', await addCustomer(ctx, req.merchant, req.body)),
  );

  app.get(
    '/customers',
    {
      preValidation: mergeGetBodyIntoQuery,
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'List customers, newest first (JSON body or query string; page zero-based, perPage default 20, max 100)',
        querystring: listCustomersInput,
        response: {
          200: envelopeSchema(
            z.object({
              allList: z.array(customerItem),
              page: z.number().int().describe('zero-based'),
              perPage: z.number().int(),
              totalCount: z.number().int(),
              totalPage: z.number().int(),
            }),
          ),
          ...errorResponses,
        },
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
        response: { 200: envelopeSchema(customerItem), ...errorResponses, 404: customerNotFound },
      },
    },
    async (req) =>
      ok('Customer retrieved successfully.', await getCustomer(ctx, req.merchant, req.params.customerId)),
  );

  app.post(
    '/customers/request-card/:customerId',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers'],
        summary: 'Send the customer a link to the hosted add-card page by SMS and/or email',
        params: customerPathParams,
        body: merchantKeyInput,
        response: {
          200: z.object({ result: z.literal(true), message: z.string() }),
          ...errorResponses,
          404: customerNotFound,
        },
      },
    },
    async (req) => {
      const r = await requestCard(ctx, req.merchant, req.params.customerId);
      return { result: true as const, message: r.message };
    },
  );

  app.post(
    '/customers/charge/:customerId',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['customers', 'payments'],
        summary: "Charge the customer's default payment method (preAuth: true holds the amount instead)",
        params: customerPathParams,
        body: chargeInput,
        response: {
          200: z.object({
            result: z.literal(true),
            message: z.string(),
            transaction_id: z.string(),
            data: chargeData,
          }),
          ...errorResponses,
          402: declined,
          404: customerNotFound,
        },
      },
    },
    async (req) => {
      const data = await chargeCustomer(ctx, req.merchant, req.params.customerId, req.body);
      return { result: true as const, message: chargeMessage(data), transaction_id: data.transaction_id, data };
    },
  );
}
