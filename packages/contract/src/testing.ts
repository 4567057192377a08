import * as z from 'zod';
import { envelope } from './envelope.js';
import { eventTypeSchema } from './events.js';
import { email, intLike } from './fields.js';

/**
 * The test kit's controls under `/testing` (`remit-sandbox`, `startSandbox()` of @remit/testing;
 * absent from every other server): what its in-process API does, over HTTP, for test suites in
 * any language (docs/testing.md).
 */

/** What `POST /testing/fail` makes the next payment do (the kit's `sandbox.fail`). */
export const TESTING_OUTCOMES = ['decline', 'insufficient_funds', '3ds_failure', 'timeout', 'ach_return'] as const;
export type TestingOutcome = (typeof TESTING_OUTCOMES)[number];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const DURATION_RULE = "write milliseconds or a number with ms, s, m, h, d or w ('25h', '3d', '1d 2h')";

/** Milliseconds of a duration: milliseconds, or text such as `'25h'`, `'3d'`, `'90m'`, `'1d 2h'`. Throws RangeError. */
export function durationMs(d: number | string): number {
  if (typeof d === 'number') {
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`A duration must be 0 or more milliseconds, not ${d}`);
    return Math.round(d);
  }
  let total = 0;
  for (const part of d.trim().toLowerCase().split(/\s+/)) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(part);
    if (!m) throw new RangeError(`Unreadable duration ${JSON.stringify(d)}: ${DURATION_RULE}`);
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return Math.round(total);
}

/** The furthest one `POST /testing/clock/advance` moves: ten years. */
export const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;

/** `POST /testing/fail`. */
export const testingFailInput = z.object({
  outcome: z.enum(TESTING_OUTCOMES, { error: `must be one of ${TESTING_OUTCOMES.join(', ')}` }),
});
export const testingFailResponseSchema = envelope(
  z.object({ outcome: z.enum(TESTING_OUTCOMES), queued: z.array(z.enum(TESTING_OUTCOMES)) }),
);

/** `POST /testing/reset`. */
export const testingResetResponseSchema = envelope(z.object({ client_id: z.string() }));

/** `POST /testing/clock/advance`. */
export const testingAdvanceInput = z.object({
  by: z
    .union([z.number(), z.string().max(100)])
    .describe("'25h', '3d', '90m', '1d 2h' or milliseconds")
    .transform((v, ctx) => {
      try {
        const ms = durationMs(v);
        if (ms <= MAX_ADVANCE_MS) return ms;
        ctx.addIssue({ code: 'custom', message: 'must be at most ten years' });
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
      return z.NEVER;
    }),
});
export const testingAdvanceResponseSchema = envelope(
  z.object({
    /** The sandbox's time after the move (ISO 8601 UTC). */
    now: z.string(),
    advanced_ms: z.number().int(),
  }),
);

/** The longest a long-poll waits, and how long by default. */
export const MAX_WAIT_MS = 120_000;
export const DEFAULT_WAIT_MS = 10_000;
const timeoutMs = intLike(0, MAX_WAIT_MS).optional();

/** `GET /testing/webhooks/next`. */
export const testingNextWebhookQuery = z.object({
  type: eventTypeSchema.optional(),
  timeout_ms: timeoutMs,
});
export const testingWebhookSchema = z.object({
  /** The event's id (`evt_…`, the `webhook-id` header). */
  id: z.string(),
  event_type: z.string(),
  data: z.record(z.string(), z.unknown()),
  /** When the kit's receiver got it (ISO 8601 UTC), its signature checked. */
  received_at: z.string(),
});
export type TestingWebhook = z.infer<typeof testingWebhookSchema>;
export const testingNextWebhookResponseSchema = envelope(testingWebhookSchema);

/** `GET /testing/messages/next`. */
export const testingNextMessageQuery = z.object({
  /** A phone in any US or E.164 form, or an email address. */
  to: z.string().trim().min(1).max(254).optional(),
  channel: z.enum(['sms', 'email'], { error: 'must be sms or email' }).optional(),
  timeout_ms: timeoutMs,
});
export const testingMessageSchema = z.object({
  id: z.string(),
  channel: z.enum(['sms', 'email']),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  html: z.string().nullable(),
  /** Every http(s) address in the text, in order: the pay link first for a payment request. */
  links: z.array(z.string()),
  pay_link_id: z.string().nullable(),
  merchant_id: z.string(),
  created_at: z.string(),
});
export type TestingMessage = z.infer<typeof testingMessageSchema>;
export const testingNextMessageResponseSchema = envelope(testingMessageSchema);

/** `POST /testing/trigger`. */
export const testingTriggerInput = z.object({
  event_type: eventTypeSchema,
  merchant_key: z.string().min(1).max(200).optional(),
});
export const testingTriggerResponseSchema = envelope(
  z.object({ event_id: z.string(), event_type: z.string(), data: z.record(z.string(), z.unknown()) }),
);

/** `POST /testing/merchants`: an onboarded, approved merchant (the kit's `createMerchant`). */
export const testingMerchantInput = z.object({
  business_name: z.string().trim().min(1).max(200).optional(),
  email: email().optional(),
});
export const testingMerchantResponseSchema = envelope(
  z.object({ merchant_key: z.string(), merchant_id: z.string(), public_key: z.string() }),
);
