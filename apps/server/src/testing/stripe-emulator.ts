import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { createProcessor } from '@remit/core';

/**
 * A Stripe emulator for tests: a real HTTP server speaking Stripe's wire format (form-encoded
 * requests with bracketed keys, JSON objects shaped as Stripe's, typed against the `stripe`
 * package's own types, errors as `{error: {type, code, decline_code, message, …}}`), honouring
 * `Idempotency-Key` as Stripe does (same key and parameters: the first answer again; other
 * parameters: 400 idempotency_error). Stateful enough for Remit's flows; the Stripe test card
 * numbers decide outcomes. Events it sends carry `Stripe-Signature`.
 */

type Params = Record<string, unknown>;

/** Parses `a[b][0]=x` form bodies into nested objects and arrays, as Stripe reads them. */
export function parseForm(body: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return out;
}

type PaymentIntent = Pick<
  Stripe.PaymentIntent,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_capturable'
  | 'amount_received'
  | 'currency'
  | 'status'
  | 'capture_method'
  | 'customer'
  | 'payment_method'
  | 'payment_method_types'
  | 'metadata'
  | 'created'
  | 'livemode'
  | 'last_payment_error'
  | 'next_action'
  | 'cancellation_reason'
  | 'canceled_at'
  | 'description'
  | 'application_fee_amount'
> & { latest_charge: string | null; on_behalf_of: string | null; transfer_data: { destination: string; amount: number | null } | null };
type Charge = Pick<
  Stripe.Charge,
  'id' | 'object' | 'amount' | 'amount_captured' | 'amount_refunded' | 'authorization_code' | 'captured' | 'currency' | 'paid' | 'refunded' | 'status' | 'created' | 'livemode' | 'metadata' | 'failure_code' | 'failure_message'
> & {
  payment_intent: string;
  payment_method_details: { type: string } | null;
};
type PaymentMethod = Pick<Stripe.PaymentMethod, 'id' | 'object' | 'type' | 'customer' | 'created' | 'livemode' | 'metadata'> & {
  card: Pick<Stripe.PaymentMethod.Card, 'brand' | 'last4' | 'exp_month' | 'exp_year' | 'fingerprint' | 'funding' | 'country'> | null;
  us_bank_account: Pick<Stripe.PaymentMethod.UsBankAccount, 'last4' | 'routing_number' | 'account_type' | 'account_holder_type' | 'bank_name'> | null;
};
type Refund = Pick<Stripe.Refund, 'id' | 'object' | 'amount' | 'currency' | 'status' | 'created' | 'metadata'> & {
  payment_intent: string;
  charge: string;
  /** What the request asked of a destination charge (Stripe keeps them on the transfer reversal and fee refund). */
  reverse_transfer: boolean;
  refund_application_fee: boolean;
};
type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'livemode' | 'metadata' | 'email' | 'name'>;
type Account = Pick<
  Stripe.Account,
  'id' | 'object' | 'charges_enabled' | 'payouts_enabled' | 'details_submitted' | 'type' | 'metadata' | 'email' | 'country' | 'business_type' | 'created'
> & {
  business_profile: Pick<Stripe.Account.BusinessProfile, 'name' | 'mcc' | 'url' | 'support_phone' | 'support_email'>;
  company: (Pick<Stripe.Account.Company, 'name' | 'phone' | 'tax_id_provided' | 'owners_provided' | 'structure'> & { address: Stripe.Address }) | null;
  individual: { first_name: string; last_name: string; id_number_provided: boolean } | null;
  capabilities: Record<string, 'active' | 'inactive' | 'pending'>;
  tos_acceptance: Pick<Stripe.Account.TosAcceptance, 'date' | 'ip' | 'user_agent'>;
  external_accounts: { object: 'list'; data: Array<Pick<Stripe.BankAccount, 'id' | 'object' | 'last4' | 'routing_number' | 'country' | 'currency' | 'account_holder_name' | 'account_holder_type'>> };
};
type Person = Pick<Stripe.Person, 'id' | 'object' | 'account' | 'first_name' | 'last_name' | 'email' | 'phone' | 'id_number_provided' | 'created'> & {
  dob: { day: number; month: number; year: number };
  relationship: Pick<Stripe.Person.Relationship, 'representative' | 'owner' | 'executive' | 'title' | 'percent_ownership'>;
};
type Dispute = Pick<Stripe.Dispute, 'id' | 'object' | 'amount' | 'currency' | 'reason' | 'status' | 'created' | 'livemode' | 'metadata' | 'is_charge_refundable'> & {
  charge: string;
  payment_intent: string;
  evidence_details: Pick<Stripe.Dispute.EvidenceDetails, 'due_by' | 'has_evidence' | 'past_due' | 'submission_count'>;
};

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {
    super(String(error.message));
  }
}

const DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  '4000000000000069': { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { code: 'incorrect_cvc', decline_code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
};
const THREE_DS = '4000000000003220';

export interface EmulatorRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Params;
  replayed: boolean;
}

export interface StripeEmulator {
  /** The base for REMIT_STRIPE_API_URL. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  requests: EmulatorRequest[];
  paymentIntents: Map<string, PaymentIntent>;
  refunds: Refund[];
  accounts: Map<string, Account>;
  persons: Person[];
  /** Stripe's review of a connected account: charges enabled (or not) and the `account.updated` it sends. */
  reviewAccount(id: string, chargesEnabled: boolean): Stripe.Event;
  /** A cardholder disputes a PaymentIntent's charge, or Stripe moves that dispute on: the `charge.dispute.*` event. */
  dispute(paymentIntent: string, type: 'created' | 'updated' | 'closed', status: Stripe.Dispute.Status): Stripe.Event;
  /** The next `count` requests to `path` are carried out, then their connection is dropped before the answer. */
  dropAnswers(pathPattern: RegExp, count: number): void;
  /** The next `count` requests to `path` answer `status` (5xx: Stripe's api_error) without being carried out. */
  failRequests(pathPattern: RegExp, count: number, status?: number): void;
  /** A succeeded ACH debit returned by the bank afterwards: its charge fails; the `charge.failed` event Stripe sends. */
  returnAch(id: string, reason?: string): Stripe.Event;
  /** Resolves a processing ACH PaymentIntent and returns the event Stripe would send. */
  settleAch(id: string, outcome: 'succeeded' | 'failed'): Stripe.Event;
  /** An event of `type` about `object`, as Stripe sends it. */
  event(type: string, object: object): Stripe.Event;
  /** `Stripe-Signature` of `payload` (at `timestamp`, seconds; default now), with `secret` (default the webhook secret). */
  sign(payload: string, opts?: { timestamp?: number; secret?: string }): string;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

export async function startStripeEmulator(): Promise<StripeEmulator> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: EmulatorRequest[] = [];
  const paymentIntents = new Map<string, PaymentIntent>();
  const charges = new Map<string, Charge>();
  const methods = new Map<string, PaymentMethod & { number?: string }>();
  const customers = new Map<string, Customer>();
  const accounts = new Map<string, Account>();
  const persons: Person[] = [];
  const disputes = new Map<string, Dispute>();
  const refunds: Refund[] = [];
  const idempotent = new Map<string, { request: string; status: number; body: string }>();
  const drops: { pattern: RegExp; count: number }[] = [];
  const failures: { pattern: RegExp; count: number; status: number }[] = [];
  /** 3-D Secure challenges waiting on the emulator's page, by PaymentIntent. */
  const challenges = new Map<string, { returnUrl: string; number: string }>();
  const challenged = new Set<string>();
  let baseUrl = () => '';

  const fail = (status: number, type: string, message: string, extra: Record<string, unknown> = {}): never => {
    throw new StripeFailure(status, { type, message, ...extra });
  };
  const missing = (what: string, value: string): never =>
    fail(404, 'invalid_request_error', `No such ${what}: '${value}'`, { code: 'resource_missing', param: 'id' });
  const int = (v: unknown, param: string): number => {
    const n = Number(v);
    if (typeof v !== 'string' || !/^\d+$/.test(v)) return fail(400, 'invalid_request_error', `Invalid integer: ${String(v)}`, { param });
    return n;
  };

  const createMethod = (p: Params): PaymentMethod & { number?: string } => {
    const type = String(p.type);
    const base = { id: id('pm'), object: 'payment_method' as const, customer: null, created: now(), livemode: false, metadata: {} };
    if (type === 'card') {
      const c = (p.card ?? {}) as Record<string, string>;
      if (!c.number) fail(400, 'invalid_request_error', 'Missing required param: card[number].', { param: 'card[number]', code: 'parameter_missing' });
      const brand = c.number!.startsWith('4') ? 'visa' : c.number!.startsWith('5') ? 'mastercard' : c.number!.startsWith('3') ? 'amex' : 'discover';
      const m = {
        ...base,
        type: 'card' as const,
        card: { brand, last4: c.number!.slice(-4), exp_month: Number(c.exp_month), exp_year: Number(c.exp_year), fingerprint: c.number!.slice(-8), funding: 'credit', country: 'US' },
        us_bank_account: null,
        number: c.number,
      };
      methods.set(m.id, m);
      return m;
    }
    if (type === 'us_bank_account') {
      const b = (p.us_bank_account ?? {}) as Record<string, string>;
      const m = {
        ...base,
        type: 'us_bank_account' as const,
        card: null,
        us_bank_account: {
          last4: String(b.account_number ?? '').slice(-4),
          routing_number: b.routing_number ?? null,
          account_type: (b.account_type ?? 'checking') as 'checking',
          account_holder_type: (b.account_holder_type ?? 'individual') as 'individual',
          bank_name: 'STRIPE TEST BANK',
        },
        number: b.account_number,
      };
      methods.set(m.id, m);
      return m;
    }
    return fail(400, 'invalid_request_error', `Invalid payment method type: ${type}`, { param: 'type' });
  };

  const view = (pi: PaymentIntent, expand: unknown) =>
    Array.isArray(expand) && expand.includes('latest_charge') && pi.latest_charge ? { ...pi, latest_charge: charges.get(pi.latest_charge) } : pi;

  const createIntent = (p: Params): PaymentIntent => {
    const amount = int(p.amount, 'amount');
    if (amount < 50) fail(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', { code: 'amount_too_small', param: 'amount' });
    const method = p.payment_method ? methods.get(String(p.payment_method)) ?? missing('payment_method', String(p.payment_method)) : p.payment_method_data ? createMethod(p.payment_method_data as Params) : null;
    const capture = p.capture_method === 'manual' ? 'manual' : 'automatic';
    const destination = (p.transfer_data as Params | undefined)?.destination as string | undefined;
    if (destination !== undefined && !accounts.has(destination)) missing('account', destination);
    const fee = p.application_fee_amount === undefined ? null : int(p.application_fee_amount, 'application_fee_amount');
    if (fee !== null && !destination) fail(400, 'invalid_request_error', 'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).', { param: 'application_fee_amount' });
    if (fee !== null && fee > amount) fail(400, 'invalid_request_error', 'The application fee cannot be greater than the amount.', { param: 'application_fee_amount' });
    const pi: PaymentIntent = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: String(p.currency ?? 'usd'),
      status: 'requires_payment_method',
      capture_method: capture,
      customer: (p.customer as string) ?? null,
      payment_method: method?.id ?? null,
      payment_method_types: (p.allowed_payment_method_types as string[]) ?? (p.payment_method_types as string[]) ?? ['card'],
      metadata: (p.metadata as Record<string, string>) ?? {},
      created: now(),
      livemode: false,
      last_payment_error: null,
      next_action: null,
      cancellation_reason: null,
      canceled_at: null,
      description: (p.description as string) ?? null,
      latest_charge: null,
      application_fee_amount: fee,
      on_behalf_of: (p.on_behalf_of as string) ?? null,
      transfer_data: destination ? { destination, amount: null } : null,
    };
    paymentIntents.set(pi.id, pi);
    if (p.confirm !== 'true' || !method) return pi;
    if (method.type === 'us_bank_account') {
      pi.status = 'processing';
      return pi;
    }
    const card = ((p.payment_method_options as Params | undefined)?.card ?? {}) as Record<string, string>;
    if ((method.number === THREE_DS || card.request_three_d_secure === 'challenge') && !challenged.has(pi.id)) {
      // Stripe's redirect: its page, then back to return_url (off-session: no one to ask, a decline).
      if (p.off_session === 'true' || !p.return_url) {
        return fail(402, 'card_error', 'Your card was declined. This transaction requires authentication.', {
          code: 'authentication_required',
          decline_code: 'authentication_required',
          payment_intent: pi,
        });
      }
      pi.status = 'requires_action';
      challenges.set(pi.id, { returnUrl: String(p.return_url), number: method.number ?? '' });
      pi.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${baseUrl()}/3ds/${pi.id}`, return_url: String(p.return_url) },
      } as Stripe.PaymentIntent.NextAction;
      return pi;
    }
    return chargeIntent(pi, method.number ?? '');
  };

  /** The card network's answer on a confirmed PaymentIntent: a charge, declined or approved (held or captured). */
  const chargeIntent = (pi: PaymentIntent, number: string): PaymentIntent => {
    const amount = pi.amount;
    const capture = pi.capture_method;
    const decline = DECLINES[number];
    const charge: Charge = {
      id: id('ch'),
      object: 'charge',
      amount,
      amount_captured: 0,
      amount_refunded: 0,
      authorization_code: String(100000 + Math.floor(Math.random() * 900000)),
      captured: false,
      currency: pi.currency,
      paid: !decline,
      refunded: false,
      status: decline ? 'failed' : 'succeeded',
      created: now(),
      livemode: false,
      metadata: {},
      payment_intent: pi.id,
      payment_method_details: { type: 'card' },
      failure_code: decline?.code ?? null,
      failure_message: decline?.message ?? null,
    };
    charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    if (decline) {
      const error = { type: 'card_error', ...decline, charge: charge.id, doc_url: `https://docs.stripe.com/error-codes/${decline.code}` };
      pi.last_payment_error = error as unknown as Stripe.PaymentIntent.LastPaymentError;
      return fail(402, 'card_error', decline.message, { ...decline, charge: charge.id, payment_intent: pi });
    }
    pi.next_action = null;
    if (capture === 'manual') {
      pi.status = 'requires_capture';
      pi.amount_capturable = amount;
    } else {
      pi.status = 'succeeded';
      pi.amount_received = amount;
      charge.captured = true;
      charge.amount_captured = amount;
    }
    return pi;
  };

  const intent = (pid: string) => paymentIntents.get(pid) ?? missing('payment_intent', pid);
  const unexpected = (pi: PaymentIntent, action: string): never =>
    fail(400, 'invalid_request_error', `This PaymentIntent could not be ${action} because it has a status of ${pi.status}.`, {
      code: 'payment_intent_unexpected_state',
      payment_intent: pi,
    });

  const route = (method: string, path: string, p: Params): unknown => {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/payment_methods') return createMethod(p);
    if (method === 'POST' && path === '/v1/customers') {
      const c: Customer = { id: id('cus'), object: 'customer', created: now(), livemode: false, metadata: {}, email: (p.email as string) ?? null, name: (p.name as string) ?? null };
      customers.set(c.id, c);
      if (p.payment_method) {
        const pm = methods.get(String(p.payment_method)) ?? missing('payment_method', String(p.payment_method));
        pm.customer = c.id;
      }
      return c;
    }
    if (method === 'POST' && path === '/v1/payment_intents') return view(createIntent(p), p.expand);
    if (method === 'GET' && path === '/v1/payment_intents/search') {
      // Only what Remit asks: metadata['key']:'value'.
      const q = String(p.query ?? '').match(/^metadata\['(\w+)'\]:'([^']*)'$/);
      if (!q) return fail(400, 'invalid_request_error', `Unsupported search query: ${String(p.query)}`, { param: 'query' });
      const data = [...paymentIntents.values()].filter((pi) => pi.metadata[q[1]!] === q[2]).map((pi) => view(pi, ['latest_charge']));
      return { object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' };
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)$/)) && method === 'GET') return view(intent(m[1]!), p.expand);
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/capture$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status !== 'requires_capture') return unexpected(pi, 'captured');
      const amount = p.amount_to_capture === undefined ? pi.amount_capturable : int(p.amount_to_capture, 'amount_to_capture');
      if (amount > pi.amount_capturable) {
        fail(400, 'invalid_request_error', 'The amount to capture must be less than or equal to the amount capturable.', { param: 'amount_to_capture' });
      }
      if (p.application_fee_amount !== undefined) {
        if (!pi.transfer_data) fail(400, 'invalid_request_error', 'Cannot apply an application fee to a PaymentIntent without a destination.', { param: 'application_fee_amount' });
        const fee = int(p.application_fee_amount, 'application_fee_amount');
        if (fee > amount) fail(400, 'invalid_request_error', 'The application fee cannot be greater than the amount to capture.', { param: 'application_fee_amount' });
        pi.application_fee_amount = fee;
      }
      pi.status = 'succeeded';
      pi.amount_received = amount;
      pi.amount_capturable = 0;
      const ch = charges.get(pi.latest_charge!)!;
      ch.captured = true;
      ch.amount_captured = amount;
      return pi;
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing') return unexpected(pi, 'canceled');
      pi.status = 'canceled';
      pi.amount_capturable = 0;
      pi.canceled_at = now();
      pi.cancellation_reason = (p.cancellation_reason as Stripe.PaymentIntent.CancellationReason) ?? null;
      return pi;
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/increment_authorization$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status !== 'requires_capture') return unexpected(pi, 'incremented');
      const amount = int(p.amount, 'amount');
      if (amount <= pi.amount) fail(400, 'invalid_request_error', 'The amount must be greater than the current amount.', { param: 'amount' });
      pi.amount = amount;
      pi.amount_capturable = amount;
      return pi;
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = intent(String(p.payment_intent));
      if (pi.status !== 'succeeded') return unexpected(pi, 'refunded');
      const ch = charges.get(pi.latest_charge!) ?? null;
      const refunded = refunds.filter((r) => r.payment_intent === pi.id).reduce((a, r) => a + r.amount, 0);
      const amount = p.amount === undefined ? pi.amount_received - refunded : int(p.amount, 'amount');
      if (amount + refunded > pi.amount_received) {
        fail(400, 'invalid_request_error', `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((pi.amount_received - refunded) / 100).toFixed(2)})`, {
          code: 'amount_too_large',
          param: 'amount',
        });
      }
      const r: Refund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: pi.currency,
        status: 'succeeded',
        created: now(),
        metadata: (p.metadata as Record<string, string>) ?? {},
        payment_intent: pi.id,
        charge: ch?.id ?? '',
        reverse_transfer: p.reverse_transfer === 'true',
        refund_application_fee: p.refund_application_fee === 'true',
      };
      if ((r.reverse_transfer || r.refund_application_fee) && !pi.transfer_data) {
        fail(400, 'invalid_request_error', 'This charge has no transfer to reverse and no application fee to refund.', { param: 'reverse_transfer' });
      }
      refunds.push(r);
      if (ch) {
        ch.amount_refunded += amount;
        ch.refunded = ch.amount_refunded === ch.amount_captured;
      }
      return r;
    }
    if (method === 'POST' && path === '/v1/accounts') return createAccount(p);
    if ((m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const a = accounts.get(m[1]!) ?? missing('account', m[1]!);
      if (method === 'GET') return a;
      if (method === 'POST') {
        const tos = p.tos_acceptance as Record<string, string> | undefined;
        if (tos) {
          if (!tos.date || !tos.ip) fail(400, 'invalid_request_error', 'tos_acceptance needs date and ip.', { param: 'tos_acceptance' });
          a.tos_acceptance = { date: int(tos.date, 'tos_acceptance[date]'), ip: tos.ip!, user_agent: tos.user_agent ?? null };
        }
        return a;
      }
    }
    if ((m = path.match(/^\/v1\/accounts\/([^/]+)\/persons$/)) && method === 'POST') {
      const a = accounts.get(m[1]!) ?? missing('account', m[1]!);
      const dob = (p.dob ?? {}) as Record<string, string>;
      const rel = (p.relationship ?? {}) as Record<string, string>;
      const person: Person = {
        id: id('person'),
        object: 'person',
        account: a.id,
        first_name: (p.first_name as string) ?? null,
        last_name: (p.last_name as string) ?? null,
        email: (p.email as string) ?? null,
        phone: (p.phone as string) ?? null,
        id_number_provided: typeof p.id_number === 'string' && p.id_number.length > 0,
        created: now(),
        dob: { day: Number(dob.day), month: Number(dob.month), year: Number(dob.year) },
        relationship: {
          representative: rel.representative === 'true',
          owner: rel.owner === 'true',
          executive: rel.executive === 'true',
          title: rel.title ?? null,
          percent_ownership: rel.percent_ownership === undefined ? null : Number(rel.percent_ownership),
        },
      };
      persons.push(person);
      return person;
    }
    return fail(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  };

  function createAccount(p: Params): Account {
    if (p.type !== 'custom') fail(400, 'invalid_request_error', 'Remit makes Custom accounts only.', { param: 'type' });
    const profile = (p.business_profile ?? {}) as Record<string, string>;
    const company = p.company as (Record<string, string> & { address?: Record<string, string> }) | undefined;
    const individual = p.individual as Record<string, string> | undefined;
    const bank = p.external_account as Record<string, string> | undefined;
    if (!bank?.routing_number || !bank.account_number) fail(400, 'invalid_request_error', 'Missing external_account.', { param: 'external_account' });
    const caps = Object.keys((p.capabilities ?? {}) as object);
    const a: Account = {
      id: id('acct'),
      object: 'account',
      type: 'custom',
      created: now(),
      email: (p.email as string) ?? null,
      country: String(p.country ?? 'US'),
      business_type: (p.business_type as Stripe.Account.BusinessType) ?? null,
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: true,
      metadata: (p.metadata as Record<string, string>) ?? {},
      business_profile: { name: profile.name ?? null, mcc: profile.mcc ?? null, url: profile.url ?? null, support_phone: profile.support_phone ?? null, support_email: profile.support_email ?? null },
      company: company
        ? {
            name: company.name ?? null,
            phone: company.phone ?? null,
            tax_id_provided: !!company.tax_id,
            owners_provided: company.owners_provided === 'true',
            structure: (company.structure as Stripe.Account.Company.Structure) ?? undefined,
            address: { line1: company.address?.line1 ?? null, line2: null, city: company.address?.city ?? null, state: company.address?.state ?? null, postal_code: company.address?.postal_code ?? null, country: company.address?.country ?? null },
          }
        : null,
      individual: individual ? { first_name: individual.first_name!, last_name: individual.last_name!, id_number_provided: !!individual.id_number } : null,
      capabilities: Object.fromEntries(caps.map((c) => [c, 'pending' as const])),
      tos_acceptance: { date: null, ip: null, user_agent: null },
      external_accounts: {
        object: 'list',
        data: [
          {
            id: id('ba'),
            object: 'bank_account',
            last4: bank!.account_number!.slice(-4),
            routing_number: bank!.routing_number!,
            country: bank!.country ?? 'US',
            currency: bank!.currency ?? 'usd',
            account_holder_name: bank!.account_holder_name ?? null,
            account_holder_type: bank!.account_holder_type ?? null,
          },
        ],
      },
    };
    accounts.set(a.id, a);
    return a;
  }

  const answer = (res: ServerResponse, status: number, body: string, replayed = false) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': id('req'),
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path.startsWith('/3ds/')) return challengePage(req, res, path);
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return answer(res, 401, JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
    }
    const params = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(raw);
    const key = req.headers['idempotency-key'] as string | undefined;
    const fingerprint = `${method} ${path}\n${raw}`;
    const stored = key && method === 'POST' ? idempotent.get(key) : undefined;
    requests.push({ method, path, idempotencyKey: key, params, replayed: !!stored });
    const dropping = drops.find((d) => d.count > 0 && d.pattern.test(path));
    if (stored) {
      if (stored.request !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
        return answer(res, 400, JSON.stringify({ error: { type: 'idempotency_error', message } }));
      }
      if (dropping) {
        dropping.count--;
        return req.socket.destroy();
      }
      return answer(res, stored.status, stored.body, true);
    }
    const failing = failures.find((f) => f.count > 0 && f.pattern.test(path));
    if (failing) {
      failing.count--;
      return answer(res, failing.status, JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }));
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(route(method, path, params));
    } catch (e) {
      if (!(e instanceof StripeFailure)) throw e;
      status = e.status;
      body = JSON.stringify({ error: e.error });
    }
    if (key && method === 'POST') idempotent.set(key, { request: fingerprint, status, body });
    if (dropping) {
      // Done, and the answer lost: as a timeout or a crash between Stripe and us would look.
      dropping.count--;
      return req.socket.destroy();
    }
    answer(res, status, body);
  };

  /**
   * Stripe's 3-D Secure page, as a browser (or HTTP client) sees it: GET shows "Complete" and
   * "Fail"; either answers the challenge and redirects to the return URL with the query Stripe adds.
   */
  const challengePage = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const [, , pid, answerWord] = path.split('/');
    const waiting = challenges.get(pid ?? '');
    const pi = paymentIntents.get(pid ?? '');
    if (!waiting || !pi) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>3D Secure</title><p>No such authentication.</p>');
    }
    if (!answerWord || req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html lang="en"><title>3D Secure 2 Test Page</title><h1>3D Secure 2 Test Page</h1>` +
          `<p>Authenticate the payment of ${(pi.amount / 100).toFixed(2)} ${pi.currency.toUpperCase()}.</p>` +
          `<form method="post" action="/3ds/${pid}/complete"><button id="test-source-authorize-3ds">Complete</button></form>` +
          `<form method="post" action="/3ds/${pid}/fail"><button id="test-source-fail-3ds">Fail</button></form></html>`,
      );
    }
    challenges.delete(pid!);
    challenged.add(pid!);
    if (answerWord === 'complete') {
      try {
        chargeIntent(pi, waiting.number);
      } catch {
        // A decline after authentication: the PaymentIntent carries it (last_payment_error).
      }
    } else {
      pi.status = 'requires_payment_method';
      pi.next_action = null;
      pi.last_payment_error = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
      } as unknown as Stripe.PaymentIntent.LastPaymentError;
    }
    const back = new URL(waiting.returnUrl);
    back.searchParams.set('payment_intent', pi.id);
    back.searchParams.set('payment_intent_client_secret', `${pi.id}_secret_x`);
    back.searchParams.set('redirect_status', pi.status === 'succeeded' || pi.status === 'requires_capture' ? 'succeeded' : 'failed');
    res.writeHead(302, { location: back.toString() });
    res.end();
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  baseUrl = () => `http://127.0.0.1:${port}`;

  const sign = (payload: string, opts: { timestamp?: number; secret?: string } = {}) => {
    const t = opts.timestamp ?? now();
    const v1 = createHmac('sha256', opts.secret ?? webhookSecret).update(`${t}.${payload}`).digest('hex');
    return `t=${t},v1=${v1}`;
  };
  const event = (type: string, object: object): Stripe.Event =>
    ({
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }) as unknown as Stripe.Event;

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    paymentIntents,
    refunds,
    accounts,
    persons,
    reviewAccount(aid, enabled) {
      const a = accounts.get(aid);
      if (!a) throw new Error(`no account ${aid}`);
      a.charges_enabled = enabled;
      a.payouts_enabled = enabled;
      for (const c of Object.keys(a.capabilities)) a.capabilities[c] = enabled ? 'active' : 'inactive';
      return event('account.updated', structuredClone(a));
    },
    dispute(pid, type, status) {
      const pi = intent(pid);
      if (!pi.latest_charge) throw new Error(`${pid} has no charge`);
      let d = [...disputes.values()].find((x) => x.payment_intent === pid);
      if (!d) {
        d = {
          id: id('dp'),
          object: 'dispute',
          amount: pi.amount_received,
          currency: pi.currency,
          reason: 'fraudulent',
          status,
          created: now(),
          livemode: false,
          metadata: {},
          is_charge_refundable: false,
          charge: pi.latest_charge,
          payment_intent: pid,
          evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
        };
        disputes.set(d.id, d);
      }
      d.status = status;
      return event(`charge.dispute.${type}`, structuredClone(d));
    },
    dropAnswers: (pattern, count) => drops.push({ pattern, count }),
    failRequests: (pattern, count, status = 500) => failures.push({ pattern, count, status }),
    returnAch(pid, reason = 'R01: Insufficient Funds') {
      const pi = intent(pid);
      if (pi.status !== 'succeeded') throw new Error(`${pid} is ${pi.status}, not succeeded`);
      const charge = charges.get(pi.latest_charge ?? '');
      if (!charge) throw new Error(`${pid} has no charge`);
      Object.assign(charge, { status: 'failed', paid: false, failure_code: 'insufficient_funds', failure_message: reason });
      return event('charge.failed', { ...charge });
    },
    settleAch(pid, outcome) {
      const pi = intent(pid);
      if (pi.status !== 'processing') throw new Error(`${pid} is ${pi.status}, not processing`);
      if (outcome === 'succeeded') {
        pi.status = 'succeeded';
        pi.amount_received = pi.amount;
        const charge: Charge = {
          id: id('py'),
          object: 'charge',
          amount: pi.amount,
          amount_captured: pi.amount,
          amount_refunded: 0,
          authorization_code: undefined,
          captured: true,
          currency: pi.currency,
          paid: true,
          refunded: false,
          status: 'succeeded',
          created: now(),
          livemode: false,
          metadata: {},
          payment_intent: pi.id,
          payment_method_details: { type: 'us_bank_account' },
          failure_code: null,
          failure_message: null,
        };
        charges.set(charge.id, charge);
        pi.latest_charge = charge.id;
      } else {
        pi.status = 'requires_payment_method';
        pi.last_payment_error = { type: 'invalid_request_error', code: 'payment_method_microdeposit_failed', message: 'R01: Insufficient Funds' } as unknown as Stripe.PaymentIntent.LastPaymentError;
      }
      return event(outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', { ...pi });
    },
    event,
    sign,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The Stripe connector (sandbox) pointed at this emulator, as a test server takes it. */
export const emulatedStripe = (emu: StripeEmulator) =>
  createProcessor('stripe', 'sandbox', { STRIPE_SECRET_KEY: emu.secretKey, STRIPE_WEBHOOK_SECRET: emu.webhookSecret, REMIT_STRIPE_API_URL: emu.url });
