import { asc, eq } from 'drizzle-orm';
import type { EventData, EventType } from '@remit/contract';
import { newId, recordEvent, schema, type Core } from '@remit/core';

/**
 * `POST /testing/trigger` (Stripe's `stripe trigger`): an event of any documented type with data
 * as Remit would send it about one merchant, written to the outbox, so the dispatcher signs it and
 * sends it to the client's webhook URL like any other. The transactions it names are made up.
 */

/** The merchant an event names: one of the sandbox's, or a made-up one when it has none. */
export interface TriggerMerchant {
  id: string;
  clientId: string;
  businessname: string;
  email: string;
  website: string;
  publicKey: string;
  merchantKey: string;
}

const AMOUNT = 25;
const FEE = 1.03;

/** Sample data of each event type about `m` at `now`, of the shapes in the contract's event union. */
export function sampleEvent<T extends EventType>(type: T, m: TriggerMerchant, now: Date): EventData[T] {
  const txn = newId.transaction();
  const original = newId.transaction();
  const order = `order-${txn.slice(-6)}`;
  const record = {
    merchant_id: m.id,
    transaction_id: txn,
    linked_txn_id: original,
    sales_id: txn,
    order_createdfrom: 'API',
    amount: AMOUNT,
    txn_id: newId.gatewayRef(),
    txn_date: now.toISOString(),
  };
  const preauthChange = {
    merchant_id: m.id,
    transaction_id: txn,
    order_id: order,
    last_authorized_amount: AMOUNT,
    authorized_amount: type === 'preauth.increment' ? AMOUNT + 10 : AMOUNT - 10,
  };
  const dispute = {
    merchant_id: m.id,
    transaction_id: txn,
    dispute_id: `dp_${txn.slice(4)}`,
    amount: AMOUNT,
    reason: 'fraudulent',
    status: type === 'dispute.closed' ? 'lost' : type === 'dispute.updated' ? 'under_review' : 'needs_response',
    evidence_due_by: type === 'dispute.closed' ? null : new Date(now.getTime() + 7 * 86_400_000).toISOString(),
  };
  const all: { [K in EventType]: EventData[K] } = {
    'webhook.test': { client_id: m.clientId, message: 'A test event sent by POST /testing/trigger.' },
    'payment.success': {
      transaction_id: txn,
      merchant_id: m.id,
      amount: AMOUNT,
      net_amount: AMOUNT - FEE,
      fee_amount: FEE,
      order_id: order,
      last_four: '4242',
      brand: 'Visa',
      link_id: '',
    },
    'payment.failed': {
      transaction_id: txn,
      merchant_id: m.id,
      order_id: order,
      amount: AMOUNT,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
      method: 'card',
    },
    'merchant.onboarding': {
      merchant_key: m.merchantKey,
      merchant_id: m.id,
      business_name: m.businessname,
      email: m.email,
      public_key: m.publicKey,
    },
    'merchant.approval': { merchant_id: m.id, business_name: m.businessname, email: m.email, company_id: m.clientId },
    'documents.signed': {
      merchant_id: m.id,
      business_name: m.businessname,
      website: m.website,
      email: m.email,
      company_id: m.clientId,
    },
    'ach.update': { merchant_id: m.id, status: 'Approved', tran_id: txn, message: 'Approved' },
    'payment.void': { ...record, type: 'Void', Status: 'Success' },
    'payment.refund': { ...record, type: 'Refund', Status: 'Success', parent_transaction_id: original },
    preauth: { merchant_id: m.id, guid: txn, amount: AMOUNT, order_id: order, customer_id: 0 },
    'preauth.increment': preauthChange,
    'preauth.decrement': preauthChange,
    'preauth.charge': {
      merchant_id: m.id,
      transaction_id: txn,
      order_id: order,
      amount: AMOUNT,
      net_amount: AMOUNT - FEE,
      fee_amount: FEE,
    },
    'preauth.void': { ...record, type: 'Void', Status: 'Success' },
    'dispute.created': dispute,
    'dispute.updated': dispute,
    'dispute.closed': dispute,
    'merchant.verification': {
      merchant_id: m.id,
      verification: {
        status: 'action_required',
        currently_due: [{ requirement: 'individual.verification.document', label: 'Identity document of the owner' }],
        eventually_due: [],
        past_due: [],
        pending_verification: [],
        errors: [],
        deadline: new Date(now.getTime() + 14 * 86_400_000).toISOString(),
        disabled_reason: null,
        charges_enabled: true,
        payouts_enabled: true,
        upcoming: { eventually_due: [], deadline: null },
      },
    },
    'merchant.csp_violation': {
      merchant_id: m.id,
      report_id: `csp_${txn.slice(4)}`,
      blocked_uri: 'https://cdn.example/analytics.js',
      directive: 'script-src-elem',
      document_uri: m.website,
      remit_resource: false,
    },
    'payment.refund.failed': {
      ...record,
      type: 'Refund',
      Status: 'Error',
      parent_transaction_id: original,
      reason: 'Stripe: invalid_request_error charge_already_refunded: Charge has already been refunded.',
    },
    'payment.void.failed': {
      ...record,
      type: 'Void',
      Status: 'Error',
      reason:
        'Stripe: invalid_request_error payment_intent_unexpected_state: This PaymentIntent could not be canceled.',
    },
    'preauth.charge.failed': {
      merchant_id: m.id,
      transaction_id: txn,
      order_id: order,
      amount: AMOUNT,
      Status: 'Error',
      reason:
        'Stripe: invalid_request_error payment_intent_unexpected_state: This PaymentIntent could not be captured.',
    },
  };
  return all[type];
}

/** The client's first merchant, else a made-up one (its events then name no merchant of the database). */
async function someMerchant(
  core: Core,
  clientId: string,
  keys: Map<string, string>,
): Promise<TriggerMerchant & { real: boolean }> {
  const [row] = await core.ctx.db
    .select()
    .from(schema.merchants)
    .where(eq(schema.merchants.clientId, clientId))
    .orderBy(asc(schema.merchants.joinDate))
    .limit(1);
  if (row) return { ...row, merchantKey: keys.get(row.id) ?? `mk_test_${row.id.slice(2)}`, real: true };
  const id = newId.merchant();
  return {
    id,
    clientId,
    businessname: 'Acme Supplies LLC',
    email: 'owner@acme.example',
    website: 'https://acme.example',
    publicKey: `pk_test_${id.slice(2)}`,
    merchantKey: `mk_test_${id.slice(2)}`,
    real: false,
  };
}

/** Records the event for the client's webhook URL; answers its id and data. */
export async function triggerEvent(
  core: Core,
  clientId: string,
  type: EventType,
  given: { merchant: Omit<TriggerMerchant, 'merchantKey'>; merchantKey: string } | null,
  keys: Map<string, string>,
) {
  const m = given
    ? { ...given.merchant, merchantKey: given.merchantKey, real: true }
    : await someMerchant(core, clientId, keys);
  const data = sampleEvent(type, m, core.ctx.now());
  const event_id = await recordEvent(
    core.ctx,
    { clientId, merchantId: m.real ? m.id : null, type, data },
    core.ctx.vault,
  );
  return { event_id, data: data as Record<string, unknown> };
}
