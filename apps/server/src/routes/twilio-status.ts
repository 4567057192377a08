import { z } from 'zod';
import { errorResponses, errorEnvelopeSchema } from '@remit/contract';
import { recordSmsStatus, TWILIO_STATUS_PATH, type Ctx } from '@remit/core';
import type { App } from './types.js';

/** Twilio posts its parameters form-encoded, each once; the signature covers every one. */
const statusParams = z.record(z.string(), z.string());

/** Twilio's delivery status callbacks for the SMS it accepted (the StatusCallback of each message). */
export function twilioStatusRoutes(app: App, ctx: Ctx) {
  app.post(
    TWILIO_STATUS_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['callbacks'],
        summary: "Twilio's delivery status of an SMS, verified by its X-Twilio-Signature",
        body: statusParams,
        response: { 204: z.null(), ...errorResponses, 403: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const signature = req.headers['x-twilio-signature'];
      await recordSmsStatus(ctx, { signature: typeof signature === 'string' ? signature : '', params: req.body });
      return reply.code(204).send(null);
    },
  );
}
