import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { payChallenges, transactions } from '../db/schema.js';
import { finishIssuerChallenge } from '../pay-page/issuer-challenge.js';
import { ABSENT_AFTER_MS } from '../payments/processing-charges.js';
import { IS_STATUS } from '../payments/state.js';
import { PollLoop, type DispatcherLogger } from '../poll-loop.js';
import type { PaymentLookup } from '../processor/connector.js';
import { achResult } from '../payments/stripe-ach.js';
import { settleProcessingByKey } from './settle-processing.js';
import { confirmDeferred } from '../processor/unconfirmed.js';
import { reconcileIntents, type IntentReconcileReport } from './reconcile-intents.js';
import { inTransaction } from '../operation.js';
import { settleRefusedCall, type Refusal } from '../payments/refused-calls.js';

/**
 * Reconciliation: what only the processor can say, asked of it. A `processing` payment (its
 * answer never came) is looked up by the idempotency key it was sent with; an ACH debit or a 3-D
 * Secure challenge still waiting after `pendingAfterMs` (its webhook never came) by its reference.
 * Each is settled in its own transaction with the row locked and its state checked again, so a
 * webhook or another pass that got there first makes this one change nothing. Captures, cancels
 * and refunds whose answer never came are sent again with their own keys (processor/unconfirmed.ts).
 */

export interface ReconcileOptions {
  /** How long an ACH debit or a challenge may wait for its webhook before it is asked about (default 1 hour). */
  pendingAfterMs?: number;
  /** A payment the processor has no record of after this long is declined (default 10 minutes). */
  absentAfterMs?: number;
  /** How far back the links' PaymentIntents are listed (default `INTENT_WINDOW_MS`). */
  intentWindowMs?: number;
  /** Where a refused call's warn line goes (the server's log; the CLI prints its own). */
  logger?: DispatcherLogger;
}

export interface ReconcileReport {
  /** Payments asked about. */
  checked: number;
  /** Of them, settled by this pass. */
  settled: number;
  /** Could not be asked (the processor unreachable): the next pass tries again. */
  failed: number;
  /** Captures, cancels and refunds sent again: confirmed, refused outright (an operator must look), still unanswered. */
  calls: { confirmed: number; refused: number; left: number };
  /** The calls refused in this pass, with what each undid (payments/refused-calls.ts). */
  refusals: Refusal[];
  /** Stripe: the links' PaymentIntents over the window, and those that did not match Remit's records (reconcile-intents.ts). */
  intents: IntentReconcileReport;
}

const BATCH = 100;

export async function reconcilePayments(ctx: Ctx, opts: ReconcileOptions = {}): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    checked: 0,
    settled: 0,
    failed: 0,
    calls: { confirmed: 0, refused: 0, left: 0 },
    refusals: [],
    intents: { listed: 0, mismatches: [] },
  };
  const lookup = ctx.processor.lookupPayment?.bind(ctx.processor);
  if (!lookup) return report;
  report.calls = await confirmDeferred(ctx, async (call, cause) => {
    const refusal = await settleRefusedCall(ctx, call, cause);
    if (!refusal) return false;
    report.refusals.push(refusal);
    opts.logger?.warn(
      { provider: ctx.processor.name, ...refusal },
      `the processor refused a ${refusal.operation} Remit had answered as done: its record is failed`,
    );
    return true;
  });
  try {
    report.intents = await reconcileIntents(ctx, { windowMs: opts.intentWindowMs });
  } catch {
    // Stripe unreachable while listing: the next pass lists the window again.
    report.failed++;
  }
  const now = ctx.now();
  const waitedSince = new Date(now.getTime() - (opts.pendingAfterMs ?? 3_600_000));
  const ask = async (by: Parameters<typeof lookup>[0]): Promise<PaymentLookup | null> => {
    report.checked++;
    try {
      return await lookup(by);
    } catch {
      report.failed++;
      return null;
    }
  };

  const processing = await ctx.db
    .select({ id: transactions.id, key: transactions.gatewayRef, createdAt: transactions.createdAt })
    .from(transactions)
    .where(eq(transactions.isStatus, IS_STATUS.processing))
    .limit(BATCH);
  for (const p of processing) {
    const found = p.key ? await ask({ idempotencyKey: p.key }) : null;
    if (!found) continue;
    const absentIsFinal = now.getTime() - p.createdAt.getTime() > (opts.absentAfterMs ?? ABSENT_AFTER_MS);
    const changed = await inTransaction(ctx, (tx, ctx) => settleProcessingByKey(ctx, tx, p.key!, found, absentIsFinal));
    if (changed) report.settled++;
  }

  const debits = await ctx.db
    .select({ ref: transactions.gatewayRef })
    .from(transactions)
    .where(
      and(
        eq(transactions.isStatus, IS_STATUS.pending),
        eq(transactions.paymentMethod, 'ach'),
        eq(transactions.type, 'Sale'),
        isNotNull(transactions.gatewayRef),
        lt(transactions.updatedAt, waitedSince),
      ),
    )
    .limit(BATCH);
  for (const d of debits) {
    const found = await ask({ gatewayRef: d.ref! });
    if (!found || (found.state !== 'approved' && found.state !== 'declined')) continue;
    const outcome =
      found.state === 'approved'
        ? ({ approved: true } as const)
        : ({ approved: false, message: found.message } as const);
    if (await inTransaction(ctx, (tx, ctx) => achResult(tx, ctx, d.ref!, outcome))) report.settled++;
  }

  const challenges = await ctx.db
    .select({ ref: payChallenges.gatewayRef })
    .from(payChallenges)
    .where(
      and(
        eq(payChallenges.status, 'open'),
        isNotNull(payChallenges.gatewayRef),
        lt(payChallenges.createdAt, waitedSince),
      ),
    )
    .limit(BATCH);
  for (const c of challenges) {
    const found = await ask({ gatewayRef: c.ref! });
    if (!found) continue;
    if ((await finishIssuerChallenge(ctx, c.ref!, found)) !== 'waiting') report.settled++;
  }
  return report;
}

/** Every `pollMs` (default 5 minutes) and at start, with a processor that can be asked. */
export function startReconciler(
  ctx: Ctx,
  opts: ReconcileOptions & { pollMs?: number; logger?: DispatcherLogger } = {},
) {
  const loop = new PollLoop(
    async () => {
      await reconcilePayments(ctx, opts);
      return false;
    },
    { pollMs: opts.pollMs ?? 5 * 60_000, failureMessage: 'payment reconciliation pass failed', logger: opts.logger },
  );
  if (ctx.processor.lookupPayment) loop.start();
  return loop;
}
