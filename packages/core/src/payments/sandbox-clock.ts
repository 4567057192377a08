import { eq, sql } from 'drizzle-orm';
import type { AdvanceClockInput, ClockState } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { sandboxOnly } from './settlement.js';

/** The sandbox clock (docs/api.md "ACH, checks and the sandbox tools"): `POST /sandbox/advance-clock` moves one merchant's clock forward. */

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
