import { z } from 'zod';
import { listSandboxMessages, parseListMessages, type Ctx } from '@remit/core';
import { errorResponses, ok } from './envelope.js';
import { merchantForClientKey } from '../plugins/merchant.js';
import type { App } from './types.js';

const message = z.object({
  id: z.string(),
  merchant_id: z.string(),
  channel: z.string(),
  recipient: z.string(),
  subject: z.string().nullable(),
  body_text: z.string(),
  body_html: z.string().nullable(),
  pay_link_id: z.string().nullable(),
  status: z.string(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});

export function sandboxMessageRoutes(app: App, ctx: Ctx) {
  app.get(
    '/messages',
    {
      schema: {
        tags: ['sandbox'],
        summary: "Sandbox inbox: SMS and email to customers of this client's merchants",
        querystring: z.object({
          merchant_key: z.string().optional(),
          recipient: z.string().optional(),
          channel: z.enum(['sms', 'email']).optional(),
          page: z.string().optional(),
          limit: z.string().optional(),
        }),
        response: {
          200: z.object({
            result: z.literal(true),
            message: z.string(),
            data: z.object({
              messages: z.array(message),
              page: z.number(),
              limit: z.number(),
              totalCount: z.number(),
              totalPage: z.number(),
            }),
          }),
          ...errorResponses,
        },
      },
      // Validated by the core together with a GET body.
      validatorCompiler: () => (data) => ({ value: data }),
    },
    async (req) => {
      const q = parseListMessages({ ...(req.query as object), ...((req.body as object | null) ?? {}) });
      // merchant_key is optional here (one merchant's messages, else all of the client's).
      const merchant = q.merchant_key === undefined ? null : await merchantForClientKey(ctx, req.client, q.merchant_key);
      const data = await listSandboxMessages(ctx, req.client.id, merchant, q);
      return ok('Sandbox messages.', data);
    },
  );
}
