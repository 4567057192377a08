import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { processorCalls } from '../db/schema.js';
import type { DeferredCall } from './deferred.js';
import { OutcomeUnknown, ProcessorUnreachable } from './connector.js';

/** Keeps the calls an operation deferred, in its transaction (processor/deferred.ts). */
export async function recordDeferred(q: Queryable, calls: DeferredCall[]): Promise<void> {
  const now = new Date();
  await q
    .insert(processorCalls)
    .values(calls.map((c) => ({ id: `pcall_${randomUUID()}`, ...c, status: 'unconfirmed', createdAt: now })));
}

/** A deferred call as kept (`processor_calls`). */
export type KeptCall = typeof processorCalls.$inferSelect;

/**
 * Marks the call `refused` with the processor's answer, if still unconfirmed (another pass may have
 * got there first): true when this one did. Run it in the transaction that undoes what the call was for.
 */
export async function markRefused(q: Queryable, id: string, cause: string): Promise<boolean> {
  const rows = await q
    .update(processorCalls)
    .set({ status: 'refused', attempts: sql`${processorCalls.attempts} + 1`, lastError: cause, settledAt: new Date() })
    .where(and(eq(processorCalls.id, id), eq(processorCalls.status, 'unconfirmed')))
    .returning({ id: processorCalls.id });
  return rows.length > 0;
}

/** The operator's reason of a failed call: the connector's cause (`Stripe: …`), else the error's message. */
const causeOf = (e: unknown): string => {
  const cause = (e as Error).cause ?? e;
  return cause instanceof Error ? cause.message : String(cause);
};

/**
 * Sends each unconfirmed call again with its own idempotency key: answered, it is `confirmed`;
 * still no answer (or the processor unreachable), it waits for the next pass; refused outright,
 * `onRefused` marks it `refused` (`markRefused`) and undoes what it was for (the operation stood
 * recorded as done: payments/refused-calls.ts), answering whether it did. Answers how many were
 * confirmed, refused, left.
 */
export async function confirmDeferred(
  ctx: Pick<Ctx, 'db' | 'processor'>,
  onRefused: (call: KeptCall, cause: string) => Promise<boolean> = (call, cause) => markRefused(ctx.db, call.id, cause),
  batch = 100,
) {
  const out = { confirmed: 0, refused: 0, left: 0 };
  const due = await ctx.db
    .select()
    .from(processorCalls)
    .where(eq(processorCalls.status, 'unconfirmed'))
    .orderBy(asc(processorCalls.createdAt))
    .limit(batch);
  for (const c of due) {
    const key = { gatewayRef: c.gatewayRef, idempotencyKey: c.idempotencyKey };
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
      if (e instanceof OutcomeUnknown || e instanceof ProcessorUnreachable) {
        out.left++;
        await settle(ctx.db, c.id, { lastError: causeOf(e) });
      } else if (await onRefused(c, causeOf(e))) out.refused++;
      continue;
    }
    out.confirmed++;
    await settle(ctx.db, c.id, { lastError: null, status: 'confirmed', settledAt: new Date() });
  }
  return out;
}

/** One more try of an unconfirmed call: its outcome (still unconfirmed, or confirmed). */
const settle = (q: Queryable, id: string, set: { lastError: string | null; status?: string; settledAt?: Date }) =>
  q
    .update(processorCalls)
    .set({ attempts: sql`${processorCalls.attempts} + 1`, ...set })
    .where(and(eq(processorCalls.id, id), eq(processorCalls.status, 'unconfirmed')));
