import type { FastifyReply } from 'fastify';
import { RemitError, type Ctx, type RateDecision, type RateRule } from '@remit/core';
import type { RateLimits } from '../rate-limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The limits this server applies (buildApp's `rateLimits`). */
    rateLimits: RateLimits;
  }
}

/**
 * The refusal of a rate limit: sets `Retry-After` on the reply and returns the `rate_limited`
 * error (429) for the caller to throw; the error handler answers it in the spec's envelope.
 * `what` says what was counted ("Too many failed authentications from this address").
 */
export function rateLimited(reply: FastifyReply, decision: RateDecision, what: string): RemitError {
  const seconds = Math.max(1, decision.retryAfterSeconds);
  reply.header('retry-after', String(seconds));
  return new RemitError('rate_limited', `${what}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
}

/** Counts one hit of `key` against `rule`; throws the 429 when it is over the limit. */
export async function enforceRateLimit(
  ctx: Ctx,
  reply: FastifyReply,
  rule: RateRule,
  key: string,
  what: string,
): Promise<void> {
  const decision = await ctx.rateLimiter.consume(rule, key);
  if (!decision.allowed) throw rateLimited(reply, decision, what);
}
