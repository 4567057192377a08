import type { RateRule } from '@remit/core';

/** Every limit the server applies; each is configurable (docs/operations.md "Rate limits"). */
export interface RateLimits {
  /** Failed HTTP Basic authentications per claimed client id. */
  authFailuresPerClient: RateRule;
  /** Failed HTTP Basic authentications per client address. */
  authFailuresPerAddress: RateRule;
  /** `POST /portal/api/credentials` per client address. */
  credentialsPerAddress: RateRule;
  /** Authenticated `/api/v1` and `/sandbox` requests per client. */
  apiPerClient: RateRule;
  /** Pay-page calls (`/pay/api/*`) per client address. */
  payPerAddress: RateRule;
  /** Pay-page writes (pay, 3-D Secure answer, save card) per link or card token. */
  payWritesPerLink: RateRule;
}

const MINUTE = 60_000;

/** Name of each limit's environment variable, and its default. */
const RULES: Record<keyof RateLimits, { env: string; rule: RateRule }> = {
  authFailuresPerClient: { env: 'REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT', rule: { name: 'auth_fail_client', limit: 10, windowMs: 5 * MINUTE } },
  authFailuresPerAddress: { env: 'REMIT_RATE_LIMIT_AUTH_FAILURES_PER_ADDRESS', rule: { name: 'auth_fail_address', limit: 30, windowMs: 5 * MINUTE } },
  credentialsPerAddress: { env: 'REMIT_RATE_LIMIT_CREDENTIALS_PER_ADDRESS', rule: { name: 'credentials_address', limit: 20, windowMs: 60 * MINUTE } },
  apiPerClient: { env: 'REMIT_RATE_LIMIT_API_PER_CLIENT', rule: { name: 'api_client', limit: 6000, windowMs: MINUTE } },
  payPerAddress: { env: 'REMIT_RATE_LIMIT_PAY_PER_ADDRESS', rule: { name: 'pay_address', limit: 300, windowMs: 10 * MINUTE } },
  payWritesPerLink: { env: 'REMIT_RATE_LIMIT_PAY_WRITES_PER_LINK', rule: { name: 'pay_link', limit: 30, windowMs: 10 * MINUTE } },
};

export const DEFAULT_RATE_LIMITS: RateLimits = Object.fromEntries(
  Object.entries(RULES).map(([k, v]) => [k, v.rule]),
) as unknown as RateLimits;

/** The environment variable of each limit (for messages and docs/operations.md). */
export const RATE_LIMIT_ENV: Record<keyof RateLimits, string> = Object.fromEntries(
  Object.entries(RULES).map(([k, v]) => [k, v.env]),
) as unknown as Record<keyof RateLimits, string>;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: MINUTE, h: 60 * MINUTE };

/**
 * Parses `LIMIT/WINDOW`, the window a number with a unit (`ms`, `s`, `m`, `h`): `10/5m` is ten
 * per five minutes. `off` (or a limit of 0) switches the rule off.
 */
export function parseRateRule(name: string, text: string): RateRule {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0') return { name, limit: 0, windowMs: 0 };
  const m = /^(\d+)\s*\/\s*(\d+)?\s*(ms|s|m|h)$/.exec(t);
  if (!m) throw new Error(`must be LIMIT/WINDOW like 10/5m (units ms, s, m, h) or off, not "${text}"`);
  const windowMs = Number(m[2] ?? 1) * UNITS[m[3]!]!;
  if (!(windowMs > 0)) throw new Error(`needs a window longer than 0, not "${text}"`);
  return { name, limit: Number(m[1]), windowMs };
}

/** The limits from the environment, each variable unset meaning its default. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimits {
  const out = {} as RateLimits;
  for (const [key, { env: variable, rule }] of Object.entries(RULES) as Array<[keyof RateLimits, (typeof RULES)[keyof RateLimits]]>) {
    const value = env[variable];
    try {
      out[key] = value === undefined || value === '' ? rule : parseRateRule(rule.name, value);
    } catch (err) {
      throw new Error(`${variable} ${(err as Error).message}`);
    }
  }
  return out;
}

/** Limits with every rule raised far out of a test's way (the harness's default). */
export function generousRateLimits(): RateLimits {
  const out = {} as RateLimits;
  for (const [key, rule] of Object.entries(DEFAULT_RATE_LIMITS) as Array<[keyof RateLimits, RateRule]>) {
    out[key] = { ...rule, limit: 1_000_000 };
  }
  return out;
}
