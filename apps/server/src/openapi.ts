import type { Ctx } from '@remit/core';

/**
 * The reference's sections in the order /docs shows them: the merchant API first, then the
 * sandbox and the widgets' own backend, and last the callbacks Remit's providers call.
 */
export const TAGS = [
  { name: 'pay links', description: "Links a customer pays on Remit's page." },
  { name: 'payment requests', description: 'A link sent to the customer by SMS or email.' },
  { name: 'orders', description: 'Charges, captures, voids and refunds of an order.' },
  { name: 'transactions', description: 'What was paid, refunded and settled.' },
  { name: 'preauth', description: 'Authorizations captured later.' },
  { name: 'customers', description: 'Saved customers and their cards.' },
  { name: 'payments', description: 'Charging a saved card.' },
  { name: 'deposits', description: 'Settlement deposits.' },
  { name: 'merchants', description: 'Onboarding and the merchant account.' },
  { name: 'webhooks', description: 'Where Remit posts events.' },
  { name: 'widgets', description: "The embeddable widgets' settings." },
  { name: 'sandbox', description: 'Simulation: clock, settlement, inbox (sandbox only).' },
  {
    name: 'Testing',
    description:
      "The test kit's controls (remit-sandbox and startSandbox() of @remit/testing only): forced outcomes, reset, clock, the next webhook or message, events on demand.",
  },
  { name: 'pay page', description: "Called by Remit's pay page in the customer's browser." },
  {
    name: 'widget backend',
    description: 'Called by the widgets in the browser with the public key, not by a merchant server.',
  },
  { name: 'callbacks', description: "Called by Remit's providers (card processor, SMS), not by a merchant." },
];

export function openApiInfo(ctx: Ctx) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Remit merchant payments API',
      version: '1.0.0',
      description:
        'HTTP Basic authentication (client_id as username, secret_key as password) on every call. ' +
        'Errors answer `{result:false, message, code, errors?, request_id}`. ' +
        'Money is decimal text with two places unless a field is typed as a number.',
    },
    servers: openApiServers(ctx),
    tags: TAGS,
    components: { securitySchemes: { basicAuth: { type: 'http' as const, scheme: 'basic' } } },
    security: [{ basicAuth: [] }],
  };
}

/**
 * The server root, not /api/v1: the sandbox and portal endpoints live beside the API. Read when the
 * document is served, so it names the address the server really has.
 */
export function openApiServers(ctx: Ctx) {
  return [{ url: ctx.publicUrl, description: `${ctx.env}; the API base is ${ctx.publicUrl}/api/v1` }];
}
