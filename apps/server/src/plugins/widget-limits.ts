import type { FastifyReply } from 'fastify';
import { RemitError, type Ctx } from '@remit/core';

/**
 * Rate limits of the widget backend: a public key is on every merchant page, so it must not be
 * usable to flood phones with SMS or the server with links. Each rule is a fixed window counted
 * per key (the public key, the phone, the client address).
 *
 * The counting sits behind `WidgetLimiter`: the shared database limiter by default, an
 * in-process one for a single process or a test.
 */
export interface LimitRule {
  name: string;
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

export const WIDGET_LIMITS = {
  /** Every /widget/v1 call, per public key. */
  perKey: { name: 'widget_key', max: 300, windowMs: 60_000 },
  /** Every /widget/v1 call, per client address. */
  perAddress: { name: 'widget_address', max: 120, windowMs: 60_000 },
  /** Payment request SMS, per public key. */
  smsPerKey: { name: 'widget_sms_key', max: 50, windowMs: 60 * 60_000 },
  /** Payment request SMS, per recipient phone. */
  smsPerPhone: { name: 'widget_sms_phone', max: 3, windowMs: 60 * 60_000 },
  /** Payment request SMS, per client address. */
  smsPerAddress: { name: 'widget_sms_address', max: 10, windowMs: 60 * 60_000 },
} as const satisfies Record<string, LimitRule>;

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface WidgetLimiter {
  consume(rule: LimitRule, key: string): Promise<LimitOutcome> | LimitOutcome;
}

/** The shared database limiter (ctx.rateLimiter): every server process on one database counts together. */
export function databaseLimiter(ctx: Ctx): WidgetLimiter {
  return {
    async consume(rule, key) {
      const d = await ctx.rateLimiter.consume({ name: rule.name, limit: rule.max, windowMs: rule.windowMs }, key);
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
      if (w.count <= rule.max) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + rule.windowMs - t) / 1000)) };
    },
  };
}

/** Consumes each rule in turn; the first refusal is a 429 with `Retry-After`. */
export async function enforce(limiter: WidgetLimiter, reply: FastifyReply, checks: Array<[LimitRule, string]>): Promise<void> {
  for (const [rule, key] of checks) {
    const out = await limiter.consume(rule, key);
    if (!out.ok) {
      reply.header('retry-after', String(out.retryAfterSeconds));
      throw new RemitError('rate_limited', `Too many requests (${rule.name}: at most ${rule.max} per ${rule.windowMs / 1000} seconds). Retry after ${out.retryAfterSeconds} seconds.`, {
        extra: { retry_after: out.retryAfterSeconds },
      });
    }
  }
}
