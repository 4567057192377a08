import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  isRemitError,
  openVerificationLink,
  returnFromVerification,
  submitSandboxVerification,
  type Ctx,
} from '@remit/core';
import { logProcessorFailure } from '../../plugins/errors.js';
import { ownerHtml, ownerPageLimit } from '../agreement/index.js';
import { agreementProblemPage } from '../agreement/page.js';
import type { App } from '../types.js';
import { verificationPage } from './page.js';

/**
 * `/verify/{token}`: the verification link of `POST /merchant/verification-link`. GET mints a fresh
 * Stripe Account Link and redirects to it (303), or, for a sandbox merchant, shows what is due with
 * a form (POST) that submits it; `/verify/{token}/return` is where Stripe sends the merchant back.
 */

const params = z.object({ token: z.string().max(200) });

function problem(req: FastifyRequest, reply: FastifyReply, e: unknown, provider: string) {
  if (!isRemitError(e)) throw e;
  if (e.code === 'processor_error') logProcessorFailure(req, e, provider);
  const title = e.status === 404 ? 'Verification link not found' : 'Verification is not available';
  const message =
    e.code === 'processor_error'
      ? 'The payment processor could not be reached. Nothing was changed; please try again in a moment.'
      : e.message;
  return ownerHtml(reply, e.status, agreementProblemPage(title, message));
}

export function verificationRoutes(app: App, ctx: Ctx) {
  const schema = { hide: true, params };
  const limit = ownerPageLimit(app, ctx, 'verification');
  const config = { public: true };

  app.get('/verify/:token', { config, schema, onRequest: limit }, async (req, reply) => {
    try {
      const opened = await openVerificationLink(ctx, req.params.token);
      if ('redirect' in opened) {
        return reply.status(303).header('location', opened.redirect).header('cache-control', 'no-store').send();
      }
      return ownerHtml(reply, 200, verificationPage(opened.page, { action: `/verify/${req.params.token}` }));
    } catch (e) {
      return problem(req, reply, e, ctx.processor.name);
    }
  });

  app.post(
    '/verify/:token',
    { config, onRequest: limit, schema: { ...schema, body: z.record(z.string(), z.unknown()).nullish() } },
    async (req, reply) => {
      try {
        await submitSandboxVerification(ctx, req.params.token);
        return reply
          .status(303)
          .header('location', `/verify/${req.params.token}/return`)
          .header('cache-control', 'no-store')
          .send();
      } catch (e) {
        return problem(req, reply, e, ctx.processor.name);
      }
    },
  );

  app.get('/verify/:token/return', { config, schema, onRequest: limit }, async (req, reply) => {
    try {
      const view = await returnFromVerification(ctx, req.params.token);
      return ownerHtml(reply, 200, verificationPage(view, { returned: true }));
    } catch (e) {
      return problem(req, reply, e, ctx.processor.name);
    }
  });
}
