import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { processorCalls } from '../db/schema.js';
import type { DeferredCall } from './deferred.js';
import { OutcomeUnknown } from './connector.js';

/** Keeps the calls an operation deferred, in its transaction (processor/deferred.ts). */
export async function recordDeferred(q: Queryable, calls: DeferredCall[]): Promise<void> {
  const now = new Date();
  await q
    .insert(processorCalls)
    .values(calls.map((c) => ({ id: `pcall_${randomUUID()}`, ...c, status: 'unconfirmed', createdAt: now })));
}

/**
 * Sends each unconfirmed call again with its own idempotency key: answered, it is `confirmed`;
 * still no answer, it waits for the next pass; refused outright, it is `refused` (and counted:
 * the operation stands recorded, so an operator must look). Answers how many were confirmed, refused, left.
 */
export async function confirmDeferred(ctx: Pick<Ctx, 'db' | 'processor'>, batch = 100) {
  const out = { confirmed: 0, refused: 0, left: 0 };
  const due = await ctx.db
    .select()
    .from(processorCalls)
    .where(eq(processorCalls.status, 'unconfirmed'))
    .orderBy(asc(processorCalls.createdAt))
    .limit(batch);
  for (const c of due) {
    const key = { gatewayRef: c.gatewayRef, idempotencyKey: c.idempotencyKey };
    let status: 'confirmed' | 'refused' | null = 'confirmed';
    let error: string | null = null;
    try {
      if (c.kind === 'capture')
        await ctx.processor.capture({
          ...key,
          amountCents: c.amountCents ?? 0,
          applicationFeeCents: c.applicationFeeCents,
        });
      else if (c.kind === 'cancel') await ctx.processor.cancel(key);
      else
        await ctx.processor.refund({
          ...key,
          amountCents: c.amountCents ?? 0,
          reference: c.reference ?? '',
          returnFee: c.returnFee,
        });
    } catch (e) {
      status = e instanceof OutcomeUnknown ? null : 'refused';
      error = String((e as Error).cause ?? e);
    }
    if (status === null) out.left++;
    else out[status]++;
    await ctx.db
      .update(processorCalls)
      .set({
        attempts: sql`${processorCalls.attempts} + 1`,
        lastError: error,
        ...(status ? { status, settledAt: new Date() } : {}),
      })
      .where(and(eq(processorCalls.id, c.id), eq(processorCalls.status, 'unconfirmed')));
  }
  return out;
}
