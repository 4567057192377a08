import { and, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { EventType } from '@remit/contract';
import { merchants, transactions } from '../db/schema.js';
import { recordEvent } from '../webhooks/outbox.js';
import { amountNumber } from '../money.js';
import type { Writer } from '../operation.js';

/**
 * Stripe's `charge.dispute.*` on a payment of ours: the transaction carries the dispute (its id,
 * Stripe's status, when Stripe last changed it) and the client gets our own `dispute.*` event.
 * The moves are a table, so an event that comes twice, late or out of order changes nothing:
 * a late `created` after an `updated`, or anything after `closed`, is ignored.
 */

type DisputeEvent = 'created' | 'updated' | 'closed';
type Stage = 'none' | 'open' | 'closed';

/** Stripe's statuses of a closed dispute. */
const CLOSED_STATUSES = new Set(['won', 'lost', 'warning_closed', 'prevented']);

/** stage × Stripe event → our event (and the stage after it), or null: ignored. */
const MOVES: Record<DisputeEvent, Record<Stage, EventType | null>> = {
  // The first we hear of a dispute is its creation, whichever event brings it.
  created: { none: 'dispute.created', open: null, closed: null },
  updated: { none: 'dispute.created', open: 'dispute.updated', closed: null },
  closed: { none: 'dispute.closed', open: 'dispute.closed', closed: null },
};

const stageOf = (status: string | null): Stage =>
  status === null ? 'none' : CLOSED_STATUSES.has(status) ? 'closed' : 'open';

const idOf = (v: string | { id: string } | null) => (v === null ? null : typeof v === 'string' ? v : v.id);

export async function applyDispute(
  w: Writer,
  type: string,
  dispute: Stripe.Dispute,
  eventCreated: number,
): Promise<boolean> {
  const tx = w.db;
  const kind = type.slice('charge.dispute.'.length) as DisputeEvent;
  if (!(kind in MOVES)) return false;
  const intent = idOf(dispute.payment_intent);
  if (!intent) return false;
  const [row] = await tx
    .select()
    .from(transactions)
    .where(and(eq(transactions.gatewayRef, intent), inArray(transactions.type, ['Sale', 'PreAuth'])))
    .for('update');
  if (!row) return false;
  // One dispute per charge at Stripe: another id is not ours to follow.
  if (row.disputeId !== null && row.disputeId !== dispute.id) return false;
  const stage = stageOf(row.disputeStatus);
  const move = MOVES[kind][stage];
  const at = new Date(eventCreated * 1000);
  if (!move) return false;
  // Whatever event brings a closed status, the client hears that the dispute closed.
  const ours = CLOSED_STATUSES.has(dispute.status) ? 'dispute.closed' : move;
  // Two updates out of order: the older one is stale.
  if (stage === 'open' && kind === 'updated' && row.disputeChangedAt && at < row.disputeChangedAt) return false;
  await tx
    .update(transactions)
    .set({ disputeId: dispute.id, disputeStatus: dispute.status, disputeChangedAt: at })
    .where(eq(transactions.id, row.id));
  const [merchant] = await tx
    .select({ clientId: merchants.clientId })
    .from(merchants)
    .where(eq(merchants.id, row.merchantId));
  const due = dispute.evidence_details?.due_by;
  await recordEvent(w, {
    clientId: merchant!.clientId,
    merchantId: row.merchantId,
    type: ours as 'dispute.created',
    data: {
      merchant_id: row.merchantId,
      transaction_id: row.id,
      dispute_id: dispute.id,
      amount: amountNumber(dispute.amount),
      reason: dispute.reason,
      status: dispute.status,
      evidence_due_by: due ? new Date(due * 1000).toISOString() : null,
    },
  });
  return true;
}
