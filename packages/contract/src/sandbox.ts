import * as z from 'zod';
import { intLike, merchantKey } from './fields.js';
import { envelope } from './envelope.js';

/** The sandbox simulation endpoints under `/sandbox`: clock, settlement, inbox. */

export const MAX_ADVANCE_HOURS = 24 * 365;
const HOURS_RULE = `must be a number of hours above 0 and at most ${MAX_ADVANCE_HOURS} (one year), for example 25`;

/** `POST /sandbox/advance-clock`. */
export const advanceClockInput = z.object({
  merchant_key: merchantKey(),
  hours: z.union([z.number(), z.string().max(20)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isFinite(n) || n <= 0 || n > MAX_ADVANCE_HOURS) {
      ctx.addIssue({ code: 'custom', message: HOURS_RULE });
      return z.NEVER;
    }
    return n;
  }),
});
export type AdvanceClockInput = z.output<typeof advanceClockInput>;
export type AdvanceClockRequest = z.input<typeof advanceClockInput>;

export const clockStateSchema = z.object({
  merchant_id: z.string(),
  /** The merchant's sandbox time after the move (ISO 8601). */
  clock: z.string(),
  /** How far the merchant's clock runs ahead of real time, in hours. */
  offset_hours: z.number(),
});
export type ClockState = z.infer<typeof clockStateSchema>;
export type AdvanceClockResult = ClockState;
export const advanceClockResponseSchema = envelope(clockStateSchema);

/** `POST /sandbox/settle`. */
export const settleInput = z.object({ merchant_key: merchantKey() });
export type SettleInput = z.output<typeof settleInput>;
export type SettleRequest = z.input<typeof settleInput>;

export const settleResultSchema = z.object({
  merchant_id: z.string(),
  settled_count: z.number().int(),
  transaction_ids: z.array(z.string()),
  settled_at: z.string(),
});
export type SettleResult = z.infer<typeof settleResultSchema>;
export const settleResponseSchema = envelope(settleResultSchema);

/** `GET /sandbox/messages`: query string or GET JSON body (body wins). */
export const listMessagesQuery = z.object({
  merchant_key: z.string().min(1, 'is required').max(200).optional(),
  recipient: z.string().trim().min(1).max(254).optional(),
  channel: z.enum(['sms', 'email'], { error: 'must be sms or email' }).optional(),
  page: intLike(0, 1_000_000).optional(),
  limit: intLike(1, 100).optional(),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;
export type ListSandboxMessagesRequest = z.input<typeof listMessagesQuery>;

/** An SMS or email kept in the sandbox inbox instead of being sent. */
export const sandboxMessageSchema = z.object({
  id: z.string(),
  merchant_id: z.string(),
  channel: z.string(),
  recipient: z.string(),
  subject: z.string().nullable(),
  body_text: z.string(),
  body_html: z.string().nullable(),
  pay_link_id: z.string().nullable(),
  status: z.string(),
  attempts: z.number(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type MessageView = z.infer<typeof sandboxMessageSchema>;

export const sandboxMessagePageSchema = z.object({
  messages: z.array(sandboxMessageSchema),
  page: z.number(),
  limit: z.number(),
  totalCount: z.number(),
  totalPage: z.number(),
});
export type SandboxMessagePage = z.infer<typeof sandboxMessagePageSchema>;
export const sandboxMessagePageResponseSchema = envelope(sandboxMessagePageSchema);
