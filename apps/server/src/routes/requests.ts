import {
  customerIdParams,
  customerRequestBody,
  customerRequestHeaders,
  customerRequestResponseSchema,
  errorEnvelopeSchema,
  errorResponses,
  paymentRequestBody,
  paymentRequestResponseSchema,
} from '@remit/contract';
import {
  createCustomerRequest,
  createPaymentRequest,
  deliveryNote,
  unsentNote,
  type Ctx,
  type RequestOutcome,
} from '@remit/core';
import { ok } from './envelope.js';
import type { App } from './types.js';

/** "Payment request created and sent by SMS and email.", and what was not sent, or not yet. */
const createdMessage = (what: string, o: RequestOutcome<unknown>) =>
  (o.sent.length > 0
    ? `${what} created and sent by ${o.sent.map((c) => (c === 'sms' ? 'SMS' : 'email')).join(' and ')}.`
    : o.failed.length + o.queued.length > 0
      ? `${what} created.`
      : `${what} created successfully.`) +
  deliveryNote(o) +
  unsentNote(o.unsent);

export function requestRoutes(app: App, _ctx: Ctx) {
  app.post(
    '/requests',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['payment requests'],
        summary: 'Create a payment request: a pay link for an order, sent by SMS and/or email',
        description:
          'order_id is unique per merchant among payment requests (409 order_id_exists). The customer pays ' +
          'amount + tax + surcharge - discount, plus the card fee (merchant pricing) when pass_fee is true.',
        body: paymentRequestBody,
        response: { 200: paymentRequestResponseSchema, ...errorResponses, 409: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const outcome = await createPaymentRequest(req.ctx, req.merchant, req.body);
      return ok(createdMessage('Payment request', outcome), outcome.data);
    },
  );

  app.post(
    '/requests/:customerId',
    {
      config: { merchant: 'merchant_key' },
      schema: {
        tags: ['payment requests'],
        summary: 'Authorization request: send a stored customer a pay link by SMS and/or email',
        description:
          'Sent to every contact the customer has. isRequestCard: the card used is saved on the customer. ' +
          'The optional api_key header is accepted and ignored (HTTP Basic authenticates the call).',
        params: customerIdParams,
        // Loose: a strict object would drop the other headers (Idempotency-Key) from the request.
        headers: customerRequestHeaders,
        body: customerRequestBody,
        response: { 200: customerRequestResponseSchema, ...errorResponses, 404: errorEnvelopeSchema },
      },
    },
    async (req) => {
      const outcome = await createCustomerRequest(req.ctx, req.merchant, req.params.customerId, req.body);
      return ok(createdMessage('Authorization request', outcome), outcome.data);
    },
  );
}
