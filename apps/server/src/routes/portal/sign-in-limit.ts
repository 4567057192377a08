import { signInLimited, type Ctx, type RateRule, type SignInLimit } from '@remit/core';
import type { RateLimits } from '../../rate-limits.js';

/**
 * Failed portal sign-ins, counted by the shared database limiter (`ctx.rateLimiter`) under the
 * same rules as failed HTTP Basic authentications (`REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS`
 * and `…_PER_ADDRESS`): a secret key is one secret, so guesses through the portal and through the
 * API count together, in every server process on one database.
 */
export function sharedSignInLimit(ctx: Ctx, limits: RateLimits): SignInLimit {
  const ruleOf = (key: string): RateRule =>
    key.startsWith('client_address:') ? limits.authFailuresPerClientAddress : limits.authFailuresPerAddress;
  const counterKey = (key: string) => key.slice(key.indexOf(':') + 1);
  return {
    async check(keys) {
      for (const key of keys) {
        const d = await ctx.rateLimiter.peek(ruleOf(key), counterKey(key));
        if (!d.allowed) throw signInLimited(d.retryAfterSeconds);
      }
    },
    async failed(keys) {
      for (const key of keys) await ctx.rateLimiter.consume(ruleOf(key), counterKey(key));
    },
    // Fixed windows: a success does not wipe earlier failures (they age out with their window).
    async succeeded() {},
  };
}
