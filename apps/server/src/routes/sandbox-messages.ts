import { errorResponses, listMessagesQuery, sandboxMessagePageResponseSchema } from '@remit/contract';
import { listSandboxMessages, parseListMessages, type Ctx } from '@remit/core';
import { ok } from './envelope.js';
import { merchantForClientKey } from '../plugins/merchant.js';
import type { App } from './types.js';

export function sandboxMessageRoutes(app: App, ctx: Ctx) {
  app.get(
    '/messages',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Sandbox inbox: SMS and email to customers of this client's merchants",
        querystring: listMessagesQuery,
        response: { 200: sandboxMessagePageResponseSchema, ...errorResponses },
      },
      // Validated by the core together with a GET body.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req) => {
      const q = parseListMessages({ ...(req.query as object), ...((req.body as object | null) ?? {}) });
      // merchant_key is optional here (one merchant's messages, else all of the client's).
      const merchant =
        q.merchant_key === undefined ? null : await merchantForClientKey(ctx, req.client, q.merchant_key);
      const data = await listSandboxMessages(ctx, req.client.id, merchant, q);
      return ok('Sandbox messages.', data);
    },
  );
}
