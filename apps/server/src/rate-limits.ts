import type { RateRule } from '@remit/core';

/** Every limit the server applies; each is configurable (docs/operations.md "Rate limits"). */
export interface RateLimits {
  /**
   * Failed authentications per claimed client id and address together: a client id is not a secret,
   * so failures from one address never lock the client out at another.
   */
  authFailuresPerClientAddress: RateRule;
  /** Failed authentications per client address, whatever client ids they claim. */
  authFailuresPerAddress: RateRule;
  /** `POST /portal/api/credentials` per client address. */
  credentialsPerAddress: RateRule;
  /** Authenticated `/api/v1` and `/sandbox` requests per client. */
  apiPerClient: RateRule;
  /** Pay-page calls (`/pay/api/*`) per client address. */
  payPerAddress: RateRule;
  /** Pay-page writes (pay, 3-D Secure answer, save card) per link or card token. */
  payWritesPerLink: RateRule;
  /** Card numbers sent from one client address (pay by card, save a card), across all links: card testing. */
  payCardsPerAddress: RateRule;
  /** Hosted pay pages (`GET /pay/{id}`, `/pay/card/{token}`) per client address. */
  payPagesPerAddress: RateRule;
  /** The merchant agreement page (`GET` and `POST /agreement/{token}`) per client address: each guess of a token is a database query. */
  agreementPerAddress: RateRule;
}

const MINUTE = 60_000;

/** Name of each limit's environment variable, and its default. */
const RULES: Record<keyof RateLimits, { env: string; rule: RateRule }> = {
  authFailuresPerClientAddress: {
    env: 'REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS',
    rule: { name: 'auth_fail_client_address', limit: 10, windowMs: 5 * MINUTE },
  },
  authFailuresPerAddress: {
    env: 'REMIT_RATE_LIMIT_AUTH_FAILURES_PER_ADDRESS',
    rule: { name: 'auth_fail_address', limit: 30, windowMs: 5 * MINUTE },
  },
  credentialsPerAddress: {
    env: 'REMIT_RATE_LIMIT_CREDENTIALS_PER_ADDRESS',
    rule: { name: 'credentials_address', limit: 20, windowMs: 60 * MINUTE },
  },
  apiPerClient: { env: 'REMIT_RATE_LIMIT_API_PER_CLIENT', rule: { name: 'api_client', limit: 6000, windowMs: MINUTE } },
  payPerAddress: {
    env: 'REMIT_RATE_LIMIT_PAY_PER_ADDRESS',
    rule: { name: 'pay_address', limit: 300, windowMs: 10 * MINUTE },
  },
  payWritesPerLink: {
    env: 'REMIT_RATE_LIMIT_PAY_WRITES_PER_LINK',
    rule: { name: 'pay_link', limit: 30, windowMs: 10 * MINUTE },
  },
  payCardsPerAddress: {
    env: 'REMIT_RATE_LIMIT_PAY_CARDS_PER_ADDRESS',
    rule: { name: 'pay_cards_address', limit: 30, windowMs: 10 * MINUTE },
  },
  payPagesPerAddress: {
    env: 'REMIT_RATE_LIMIT_PAY_PAGES_PER_ADDRESS',
    rule: { name: 'pay_pages_address', limit: 120, windowMs: MINUTE },
  },
  agreementPerAddress: {
    env: 'REMIT_RATE_LIMIT_AGREEMENT_PER_ADDRESS',
    rule: { name: 'agreement_address', limit: 120, windowMs: MINUTE },
  },
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

/** Variables that no longer exist, and what replaced them: a setting is never ignored silently. */
const REPLACED: Record<string, string> = {
  REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT:
    'was replaced by REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS (failures count per client id and address, so that no one can lock a client out by its id alone)',
};

/** The limits from the environment, each variable unset meaning its default. */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): RateLimits {
  for (const [old, why] of Object.entries(REPLACED)) if (env[old]) throw new Error(`${old} ${why}`);
  const out = {} as RateLimits;
  for (const [key, { env: variable, rule }] of Object.entries(RULES) as Array<
    [keyof RateLimits, (typeof RULES)[keyof RateLimits]]
  >) {
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
