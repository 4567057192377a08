import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { addressKey, agreementFor, isRemitError, signAgreement, type Ctx } from '@remit/core';
import { logProcessorFailure } from '../../plugins/errors.js';
import { rateLimited } from '../../plugins/rate-limit.js';
import type { App } from '../types.js';
import { agreementCsp, agreementPage, agreementProblemPage } from './page.js';

/**
 * `/agreement/{token}`: the merchant agreement page (GET) and its acceptance (a form POST, then
 * 303 back to the page, which then shows when it was accepted). The token in the address is the
 * only credential; the answers never leave it in a Referer and are never cached.
 */

const params = z.object({ token: z.string().max(200) });
/** A form post: `accept=yes` when the box is ticked; anything else in it is ignored. */
const form = z.record(z.string(), z.unknown()).nullish();

/** An owner page's answer: its CSP, never framed, cached or leaking its address in a Referer. */
export function ownerHtml(reply: FastifyReply, status: number, body: string) {
  reply.raw.removeHeader('x-frame-options');
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', agreementCsp())
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(body);
}

/** A refusal of core as a page with its status (unknown link 404, Stripe unreachable 502, …). */
function problem(req: FastifyRequest, reply: FastifyReply, e: unknown, provider: string) {
  if (!isRemitError(e)) throw e;
  const title = e.status === 404 ? 'Agreement not found' : 'The agreement could not be accepted';
  // An owner on a page has no Idempotency-Key to retry with: the processor's failure in their words.
  if (e.code === 'processor_error') logProcessorFailure(req, e, provider);
  const said = e.code === 'processor_error' ? 'The payment processor could not be reached.' : e.message;
  const message = e.status >= 500 ? `${said} Nothing was recorded; please try again in a moment.` : e.message;
  return ownerHtml(reply, e.status, agreementProblemPage(title, message));
}

/**
 * The owner pages' limit (the agreement and verification pages, counted together): every view and
 * answer counts per address, like the pay pages, as each guess of a token is a query. Past it, a page saying so.
 */
export function ownerPageLimit(app: App, ctx: Ctx, pages: string) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const decision = await ctx.rateLimiter.consume(app.rateLimits.agreementPerAddress, addressKey(req.ip));
    if (decision.allowed) return;
    const refusal = rateLimited(reply, decision, `Too many ${pages} pages opened from this address`);
    return ownerHtml(reply, 429, agreementProblemPage('Too many requests', refusal.message));
  };
}

export function agreementRoutes(app: App, ctx: Ctx) {
  const schema = { hide: true, params };
  const limit = ownerPageLimit(app, ctx, 'agreement');
  app.get('/agreement/:token', { config: { public: true }, schema, onRequest: limit }, async (req, reply) => {
    try {
      const view = await agreementFor(ctx, req.params.token);
      return ownerHtml(reply, 200, agreementPage({ view, action: `/agreement/${req.params.token}` }));
    } catch (e) {
      return problem(req, reply, e, ctx.processor.name);
    }
  });

  app.post(
    '/agreement/:token',
    { config: { public: true }, onRequest: limit, schema: { ...schema, body: form } },
    async (req, reply) => {
      const accepted = req.body?.accept === 'yes';
      try {
        await signAgreement(ctx, req.params.token, {
          accepted,
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
        });
        return reply
          .status(303)
          .header('location', `/agreement/${req.params.token}`)
          .header('cache-control', 'no-store')
          .send();
      } catch (e) {
        if (isRemitError(e) && e.code === 'agreement_not_accepted') {
          const view = await agreementFor(ctx, req.params.token);
          return ownerHtml(
            reply,
            400,
            agreementPage({ view, action: `/agreement/${req.params.token}`, error: e.message }),
          );
        }
        return problem(req, reply, e, ctx.processor.name);
      }
    },
  );
}
