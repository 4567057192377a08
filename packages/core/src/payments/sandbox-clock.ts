import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { merchantKey } from '../fields.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { sandboxOnly } from './settlement.js';

/** The sandbox clock of DESIGN.md: `POST /sandbox/advance-clock` moves one merchant's clock forward. */

export const MAX_ADVANCE_HOURS = 24 * 365;
const HOURS_RULE = `must be a number of hours above 0 and at most ${MAX_ADVANCE_HOURS} (one year), for example 25`;

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

export interface ClockState {
  merchant_id: string;
  /** The merchant's sandbox time after the move. */
  clock: string;
  /** How far the merchant's clock runs ahead of real time, in hours. */
  offset_hours: number;
}

export async function advanceClock(ctx: Ctx, merchant: Merchant, input: AdvanceClockInput): Promise<ClockState> {
  if (ctx.env !== 'sandbox') throw sandboxOnly('POST /sandbox/advance-clock');
  const ms = Math.round(input.hours * 3_600_000);
  // One atomic increment: concurrent advances add up instead of overwriting each other.
  const [row] = await ctx.db
    .update(merchants)
    .set({ clockOffsetMs: sql`${merchants.clockOffsetMs} + ${ms}` })
    .where(eq(merchants.id, merchant.id))
    .returning({ clockOffsetMs: merchants.clockOffsetMs });
  const offset = row!.clockOffsetMs;
  return {
    merchant_id: merchant.id,
    clock: merchantNow(ctx.now, { clockOffsetMs: offset }).toISOString(),
    offset_hours: offset / 3_600_000,
  };
}
