import type { FastifyReply } from 'fastify';
import { parseAmountText } from '@remit/contract';
import { RemitError, type Ctx, type RateRule } from '@remit/core';
import { parseRateRule } from '../rate-limits.js';

/**
 * Limits of the widget backend: a public key is on every merchant page, so it must not be usable
 * to flood phones with SMS or the server with links. Each rate rule is a fixed window counted per
 * key (the public key, the phone, the client address); each is configurable by environment
 * variable like the server's other rate limits (docs/embedding.md "Rate limits").
 *
 * A per-key limit, once reached, refuses every shopper of the merchant: so the per-address rules
 * are counted first (a call they refuse does not count on the key), and the per-key limit is many
 * addresses' worth (25 addresses at their full rate), so a flood from a few cannot reach it.
 *
 * The counting sits behind `WidgetLimiter`: the shared database limiter by default, an
 * in-process one for a single process or a test.
 */
export interface WidgetLimits {
  /** Every /widget/v1 call, per public key: counted after the address rules, so refused calls do not count. */
  perKey: RateRule;
  /** Every /widget/v1 call, per client address. */
  perAddress: RateRule;
  /** Pay links opened, per client address. */
  payLinksPerAddress: RateRule;
  /** Payment request SMS, per public key. */
  smsPerKey: RateRule;
  /** Payment request SMS, per recipient phone and merchant (one merchant's requests never block another's). */
  smsPerPhone: RateRule;
  /** Payment request SMS, per client address. */
  smsPerAddress: RateRule;
  /** CSP violation reports of merchants' pages (`POST /csp-reports/{public_key}`), per client address. */
  cspReportsPerAddress: RateRule;
  /** Highest amount (cents) a public key may open a link or send a request for, over every merchant; null: none beyond the merchant's and the widget's own. */
  maxAmountCents: number | null;
}

type RuleKey = Exclude<keyof WidgetLimits, 'maxAmountCents'>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Name of each rule's environment variable, and its default. */
const RULES: Record<RuleKey, { env: string; rule: RateRule }> = {
  perKey: { env: 'REMIT_WIDGET_RATE_LIMIT_PER_KEY', rule: { name: 'widget_key', limit: 3000, windowMs: MINUTE } },
  perAddress: {
    env: 'REMIT_WIDGET_RATE_LIMIT_PER_ADDRESS',
    rule: { name: 'widget_address', limit: 120, windowMs: MINUTE },
  },
  payLinksPerAddress: {
    env: 'REMIT_WIDGET_RATE_LIMIT_PAY_LINKS_PER_ADDRESS',
    rule: { name: 'widget_pay_links_address', limit: 30, windowMs: MINUTE },
  },
  smsPerKey: {
    env: 'REMIT_WIDGET_RATE_LIMIT_SMS_PER_KEY',
    rule: { name: 'widget_sms_key', limit: 50, windowMs: HOUR },
  },
  smsPerPhone: {
    env: 'REMIT_WIDGET_RATE_LIMIT_SMS_PER_PHONE',
    rule: { name: 'widget_sms_phone', limit: 3, windowMs: HOUR },
  },
  smsPerAddress: {
    env: 'REMIT_WIDGET_RATE_LIMIT_SMS_PER_ADDRESS',
    rule: { name: 'widget_sms_address', limit: 10, windowMs: HOUR },
  },
  cspReportsPerAddress: {
    env: 'REMIT_WIDGET_RATE_LIMIT_CSP_REPORTS_PER_ADDRESS',
    rule: { name: 'csp_reports_address', limit: 60, windowMs: MINUTE },
  },
};
export const WIDGET_MAX_AMOUNT_ENV = 'REMIT_WIDGET_MAX_AMOUNT';

export const DEFAULT_WIDGET_LIMITS: WidgetLimits = {
  ...(Object.fromEntries(Object.entries(RULES).map(([k, v]) => [k, v.rule])) as Record<RuleKey, RateRule>),
  maxAmountCents: null,
};

/** The environment variable of each limit (for messages and docs/embedding.md). */
export const WIDGET_LIMIT_ENV: Record<keyof WidgetLimits, string> = {
  ...(Object.fromEntries(Object.entries(RULES).map(([k, v]) => [k, v.env])) as Record<RuleKey, string>),
  maxAmountCents: WIDGET_MAX_AMOUNT_ENV,
};

/** The widget limits from the environment, each variable unset meaning its default: rules `LIMIT/WINDOW` or `off`, the amount decimal text (`500.00`) or `off`. */
export function widgetLimitsFromEnv(env: NodeJS.ProcessEnv): WidgetLimits {
  const out = { ...DEFAULT_WIDGET_LIMITS };
  for (const [key, { env: variable, rule }] of Object.entries(RULES) as Array<[RuleKey, (typeof RULES)[RuleKey]]>) {
    const value = env[variable];
    if (value === undefined || value === '') continue;
    try {
      out[key] = parseRateRule(rule.name, value);
    } catch (err) {
      throw new Error(`${variable} ${(err as Error).message}`);
    }
  }
  const amount = env[WIDGET_MAX_AMOUNT_ENV]?.trim();
  if (amount && amount.toLowerCase() !== 'off') {
    const cents = parseAmountText(amount);
    if (cents === null || cents <= 0)
      throw new Error(`${WIDGET_MAX_AMOUNT_ENV} must be an amount above 0 like 500.00, or off, not "${amount}"`);
    out.maxAmountCents = cents;
  }
  return out;
}

/** A rule switched off (`off`, or a limit of 0) counts nothing. */
const isOff = (rule: RateRule) => !(rule.limit > 0 && rule.windowMs > 0);

/** Text for the API document: "3 per 1 hour", "off". */
export const describeRule = (rule: RateRule) =>
  isOff(rule)
    ? 'unlimited'
    : `${rule.limit} per ${rule.windowMs % HOUR === 0 ? `${rule.windowMs / HOUR} hour` : rule.windowMs % MINUTE === 0 ? `${rule.windowMs / MINUTE} minute` : `${rule.windowMs / 1000} seconds`}`;

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface WidgetLimiter {
  consume(rule: RateRule, key: string): Promise<LimitOutcome> | LimitOutcome;
}

/** The shared database limiter (ctx.rateLimiter): every server process on one database counts together. */
export function databaseLimiter(ctx: Ctx): WidgetLimiter {
  return {
    async consume(rule, key) {
      const d = await ctx.rateLimiter.consume(rule, key);
      return d.allowed ? { ok: true } : { ok: false, retryAfterSeconds: d.retryAfterSeconds };
    },
  };
}

/** Fixed windows in this process's memory (one server process; the database limiter replaces it when shared). */
export function memoryLimiter(now: () => number = Date.now): WidgetLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    consume(rule, key) {
      const t = now();
      const id = `${rule.name}:${key}`;
      let w = windows.get(id);
      if (!w || t - w.start >= rule.windowMs) {
        if (windows.size > 100_000) windows.clear(); // bounded memory under a flood of distinct keys
        windows.set(id, (w = { start: t, count: 0 }));
      }
      w.count++;
      if (w.count <= rule.limit) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + rule.windowMs - t) / 1000)) };
    },
  };
}

/** Consumes each rule in turn (switched-off ones skipped); the first refusal is a 429 with `Retry-After` and counts no later rule. */
export async function enforce(
  limiter: WidgetLimiter,
  reply: FastifyReply,
  checks: Array<[RateRule, string]>,
): Promise<void> {
  for (const [rule, key] of checks) {
    if (isOff(rule)) continue;
    const out = await limiter.consume(rule, key);
    if (!out.ok) {
      reply.header('retry-after', String(out.retryAfterSeconds));
      throw new RemitError(
        'rate_limited',
        `Too many requests (${rule.name}: at most ${describeRule(rule)}). Retry after ${out.retryAfterSeconds} seconds.`,
        {
          extra: { retry_after: out.retryAfterSeconds },
        },
      );
    }
  }
}
