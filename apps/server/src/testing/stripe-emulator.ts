import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { createProcessor } from '@remit/core';
import {
  type Account,
  type AccountLink,
  type AnyIntent,
  type Charge,
  type Customer,
  DECLINES,
  DECLINES_ON_CHARGE,
  type Dispute,
  MICRODEPOSIT_AMOUNTS,
  MICRODEPOSIT_CODE,
  PM_TYPES,
  PUBLISHABLE_MESSAGE,
  type Params,
  type PaymentIntent,
  type PaymentMethod,
  type PaymentMethodDomain,
  type Person,
  RAW_CARD_MESSAGE,
  type Refund,
  type SetupIntent,
  StripeFailure,
  THREE_DS,
  id,
  now,
  parseForm,
  secretFor,
} from './stripe-emulator/wire.js';
import { Outbox, type Delivery } from './stripe-emulator/outbox.js';
import { pages, servePage, type FrameData } from './stripe-emulator/pages.js';

export { parseForm };
export type { PaymentIntent, SetupIntent, PaymentMethod } from './stripe-emulator/wire.js';

/**
 * A Stripe emulator for tests: a real HTTP server speaking Stripe's wire format (form-encoded
 * requests with bracketed keys, JSON objects shaped as Stripe's, typed against the `stripe`
 * package's own types, errors as `{error: {type, code, decline_code, message, …}}`), honouring
 * `Idempotency-Key` as Stripe does (same key and parameters: the first answer again; other
 * parameters: 400 idempotency_error). Stateful enough for Remit's flows; the Stripe test card
 * numbers decide outcomes. Events it sends carry `Stripe-Signature`.
 *
 * Usage note (issue 37, "card numbers never touch Remit"):
 * - Keys: `secretKey` for the server's SDK, `publishableKey` for the browser. With the publishable
 *   key (Bearer or a `key` form field, as Stripe.js sends it) only what Stripe.js may do works:
 *   create a PaymentMethod, and retrieve / confirm / verify_microdeposits a PaymentIntent or
 *   SetupIntent with its `client_secret`.
 * - Stripe.js stand-in: `{url}/v3/` (set `REMIT_STRIPE_JS_URL` to `jsUrl`) defines `window.Stripe`
 *   with elements / create('payment') / mount / confirmPayment / confirmSetup / retrievePaymentIntent.
 *   The Payment Element is a frame of this origin (title "Secure payment input frame"): a Card tab
 *   (Card number, Expiration date, Security code, ZIP code) and, when the intent allows
 *   us_bank_account, a "US bank account" tab (instant verification with Test Institution, or
 *   "Enter bank details manually" = microdeposits; Stripe's mandate text).
 * - Test cards: 4242424242424242 succeeds; 4000000000000002 declined; 4000000000009995 insufficient
 *   funds; 4000002500003155 / 4000000000003220 ask for 3-D Secure (a modal frame with "Complete" /
 *   "Fail"; `redirect_to_url` to `/3ds/{id}` when the server confirms with a return_url).
 * - Microdeposits: next_action verify_with_microdeposits, hosted page `/microdeposit/{id}`
 *   (descriptor code SM11AA, or amounts 32 and 45); verified → processing; `settleAch(id, outcome)`
 *   settles it and sends the events.
 * - Events: `deliverTo(url)` POSTs every event signed (`events` keeps them all); `dropEvents(id, n)`
 *   loses the next n about an intent, `holdEvents(id, n)` + `sendLate(id)` sends them late,
 *   `eventsSettled()` waits for deliveries.
 * - `intents()`: every PaymentIntent with status, amount_received, amount_refunded (the truth).
 * - `stripeJsConfirmPayment` / `stripeJsConfirmSetup` (./stripe-emulator/stripe-js-node.ts): what
 *   Stripe.js does to confirm, over HTTP, for tests without a browser.
 * - `setReachable(false)`: the emulator stops listening and drops its connections (Stripe unreachable:
 *   connections refused) until `setReachable(true)`.
 * - Payment method domains (`/v1/payment_method_domains`: create, list by `domain_name` / `enabled`,
 *   retrieve, update `enabled`, validate), kept in `paymentMethodDomains`; Apple Pay and Google Pay
 *   `active` at once (Stripe checks Apple's domain association file). A second domain of the same name
 *   is refused.
 * - `startStripeEmulator({refuseRawCardData: true})`: card numbers sent with the secret key get
 *   Stripe's "raw card data" error, as on an ordinary account.
 */

export interface EmulatorRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Params;
  replayed: boolean;
  /** Which key made the request: the server's secret key or the browser's publishable key. */
  auth: 'secret' | 'publishable';
}

export interface StripeEmulatorOptions {
  /** Refuse card numbers sent with the secret key (Stripe's "raw card data" error), as an ordinary account does. */
  refuseRawCardData?: boolean;
  /** Hand out live-mode keys (sk_live_…, pk_live_…), as a production server must be given. */
  live?: boolean;
}

/** One PaymentIntent as the emulator holds it: the truth a property test compares Remit's records with. */
export interface IntentSummary {
  id: string;
  status: Stripe.PaymentIntent.Status;
  amount: number;
  amount_received: number;
  amount_refunded: number;
  capture_method: string;
  metadata: Record<string, string>;
}

export interface StripeEmulator {
  /** The base for REMIT_STRIPE_API_URL. */
  url: string;
  /** `{url}/v3/`: the Stripe.js stand-in, for REMIT_STRIPE_JS_URL. */
  jsUrl: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  requests: EmulatorRequest[];
  paymentIntents: Map<string, PaymentIntent>;
  setupIntents: Map<string, SetupIntent>;
  paymentMethods: Map<string, PaymentMethod>;
  customers: Map<string, Customer>;
  refunds: Refund[];
  accounts: Map<string, Account>;
  persons: Person[];
  /** Every Account Link made (`POST /v1/account_links`), oldest first. */
  accountLinks: AccountLink[];
  /** Registered payment method domains (Apple Pay, Google Pay in the Payment Element), by id. */
  paymentMethodDomains: Map<string, PaymentMethodDomain>;
  /** Every event the emulator made, in order (delivered or not). */
  events: Stripe.Event[];
  /** What happened to each event sent (or kept back) once an endpoint is set. */
  deliveries: Delivery[];
  /** Stripe's webhook endpoint: every event from now on is POSTed there, signed (null: none). */
  deliverTo(url: string | null): void;
  /** The next `count` events whose object is this intent (payment_intent.* / setup_intent.*) are lost: never delivered. */
  dropEvents(intentId: string, count?: number): void;
  /** The next `count` events about an intent are kept back until `sendLate`. */
  holdEvents(intentId: string, count?: number): void;
  /** Sends the held events about `intentId` (all held, without it); resolves once delivered. */
  sendLate(intentId?: string): Promise<Stripe.Event[]>;
  /** Resolves once every event so far has been answered by the endpoint. */
  eventsSettled(): Promise<void>;
  /** Every PaymentIntent held, oldest first, with what it keeps (amount_received less refunds). */
  intents(): IntentSummary[];
  /** Stripe's review of a connected account: charges enabled (or not) and the `account.updated` it sends. */
  reviewAccount(id: string, chargesEnabled: boolean): Stripe.Event;
  /**
   * Stripe asks a connected account for more, or has what it asked for: `requirements` and
   * `future_requirements` (merged into the account's), charges and payouts; the `account.updated` it sends.
   */
  requireOf(
    id: string,
    change: {
      requirements?: Partial<Stripe.Account.Requirements>;
      future_requirements?: Partial<Stripe.Account.FutureRequirements>;
      charges_enabled?: boolean;
      payouts_enabled?: boolean;
    },
  ): Stripe.Event;
  /** A cardholder disputes a PaymentIntent's charge, or Stripe moves that dispute on: the `charge.dispute.*` event. */
  dispute(paymentIntent: string, type: 'created' | 'updated' | 'closed', status: Stripe.Dispute.Status): Stripe.Event;
  /** The next `count` requests to `path` are carried out, then their connection is dropped before the answer. */
  dropAnswers(pathPattern: RegExp, count: number): void;
  /** The next `count` requests to `path` answer `status` (5xx: Stripe's api_error) without being carried out. */
  failRequests(pathPattern: RegExp, count: number, status?: number): void;
  /** Unreachable (false): stops listening and drops every open connection, so calls are refused; true: listens again. */
  setReachable(reachable: boolean): Promise<void>;
  /** A succeeded ACH debit returned by the bank afterwards: its charge fails; the `charge.failed` event Stripe sends. */
  returnAch(id: string, reason?: string): Stripe.Event;
  /**
   * Resolves a processing bank debit (ACH, or one verified by microdeposits): succeeded or failed, and
   * returns the event Stripe sends (also delivered when an endpoint is set).
   */
  settleAch(id: string, outcome: 'succeeded' | 'failed'): Stripe.Event;
  /** An event of `type` about `object`, as Stripe sends it (made only, neither kept nor delivered). */
  event(type: string, object: object): Stripe.Event;
  /** `Stripe-Signature` of `payload` (at `timestamp`, seconds; default now), with `secret` (default the webhook secret). */
  sign(payload: string, opts?: { timestamp?: number; secret?: string }): string;
  close(): Promise<void>;
}

/** An account's `requirements` (or `future_requirements`) when nothing is asked for. */
const noRequirements = () => ({
  alternatives: [],
  current_deadline: null,
  currently_due: [],
  disabled_reason: null,
  errors: [],
  eventually_due: [],
  past_due: [],
  pending_verification: [],
});

export async function startStripeEmulator(opts: StripeEmulatorOptions = {}): Promise<StripeEmulator> {
  const mode = opts.live ? 'live' : 'test';
  const secretKey = `sk_${mode}_${randomBytes(12).toString('hex')}`;
  const publishableKey = `pk_${mode}_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: EmulatorRequest[] = [];
  const paymentIntents = new Map<string, PaymentIntent>();
  const setupIntents = new Map<string, SetupIntent>();
  const charges = new Map<string, Charge>();
  const methods = new Map<string, PaymentMethod & { number?: string }>();
  const customers = new Map<string, Customer>();
  const accounts = new Map<string, Account>();
  const persons: Person[] = [];
  const accountLinks: AccountLink[] = [];
  const domains = new Map<string, PaymentMethodDomain>();
  const disputes = new Map<string, Dispute>();
  const refunds: Refund[] = [];
  const idempotent = new Map<string, { request: string; status: number; body: string }>();
  const drops: { pattern: RegExp; count: number }[] = [];
  const failures: { pattern: RegExp; count: number; status: number }[] = [];
  /** 3-D Secure challenges waiting on the emulator's page, by intent; `frame`: Stripe.js's modal, not a redirect. */
  const challenges = new Map<string, { returnUrl: string; number: string; frame: boolean }>();
  const challenged = new Set<string>();
  /** Financial Connections accounts linked in the element (instant verification). */
  const linked = new Map<string, { last4: string; institution: string }>();
  const verifyAttempts = new Map<string, number>();
  let baseUrl = () => '';

  const sign = (payload: string, o: { timestamp?: number; secret?: string } = {}) => {
    const t = o.timestamp ?? now();
    const v1 = createHmac('sha256', o.secret ?? webhookSecret)
      .update(`${t}.${payload}`)
      .digest('hex');
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
  const outbox = new Outbox((payload) => sign(payload));
  /** An event Stripe sends: kept, and delivered to the endpoint (if any). */
  const emit = (type: string, object: object) => outbox.publish(event(type, structuredClone(object)));

  const fail = (status: number, type: string, message: string, extra: Record<string, unknown> = {}): never => {
    throw new StripeFailure(status, { type, message, ...extra });
  };
  const missing = (what: string, value: string): never =>
    fail(404, 'invalid_request_error', `No such ${what}: '${value}'`, { code: 'resource_missing', param: 'id' });
  const int = (v: unknown, param: string): number => {
    const n = Number(v);
    if (typeof v !== 'string' || !/^\d+$/.test(v))
      return fail(400, 'invalid_request_error', `Invalid integer: ${String(v)}`, { param });
    return n;
  };

  const createMethod = (p: Params, auth: 'secret' | 'publishable'): PaymentMethod & { number?: string } => {
    const type = String(p.type);
    const base = {
      id: id('pm'),
      object: 'payment_method' as const,
      customer: null,
      created: now(),
      livemode: false,
      metadata: {},
    };
    if (type === 'card') {
      const c = (p.card ?? {}) as Record<string, string>;
      if (!c.number)
        fail(400, 'invalid_request_error', 'Missing required param: card[number].', {
          param: 'card[number]',
          code: 'parameter_missing',
        });
      if (auth === 'secret' && opts.refuseRawCardData) fail(400, 'invalid_request_error', RAW_CARD_MESSAGE);
      const brand = c.number!.startsWith('4')
        ? 'visa'
        : c.number!.startsWith('5')
          ? 'mastercard'
          : c.number!.startsWith('3')
            ? 'amex'
            : 'discover';
      const m = {
        ...base,
        type: 'card' as const,
        card: {
          brand,
          last4: c.number!.slice(-4),
          exp_month: Number(c.exp_month),
          exp_year: Number(c.exp_year),
          fingerprint: c.number!.slice(-8),
          funding: 'credit',
          country: 'US',
        },
        us_bank_account: null,
        number: c.number,
      };
      methods.set(m.id, m);
      return m;
    }
    if (type === 'us_bank_account') {
      const b = (p.us_bank_account ?? {}) as Record<string, string>;
      const fca = b.financial_connections_account
        ? (linked.get(b.financial_connections_account) ??
          missing('financial_connections.account', b.financial_connections_account))
        : null;
      if (!fca && (!b.routing_number || !b.account_number)) {
        const param = b.routing_number ? 'us_bank_account[account_number]' : 'us_bank_account[routing_number]';
        fail(400, 'invalid_request_error', `Missing required param: ${param}.`, { param, code: 'parameter_missing' });
      }
      const m = {
        ...base,
        type: 'us_bank_account' as const,
        card: null,
        us_bank_account: {
          last4: fca ? fca.last4 : String(b.account_number).slice(-4),
          routing_number: fca ? '110000000' : (b.routing_number ?? null),
          account_type: (b.account_type ?? 'checking') as 'checking',
          account_holder_type: (b.account_holder_type ?? 'individual') as 'individual',
          bank_name: 'STRIPE TEST BANK',
          financial_connections_account: fca ? b.financial_connections_account! : null,
        },
        number: b.account_number,
      };
      methods.set(m.id, m);
      return m;
    }
    return fail(400, 'invalid_request_error', `Invalid payment method type: ${type}`, { param: 'type' });
  };
  const methodOf = (pid: string) => methods.get(pid) ?? missing('payment_method', pid);
  /** A PaymentMethod as Stripe shows it (the number never leaves). */
  const methodView = (m: PaymentMethod & { number?: string }): PaymentMethod => {
    const { number: _n, ...shown } = m;
    return shown;
  };

  const view = (pi: PaymentIntent, expand: unknown) => {
    const e = Array.isArray(expand) ? (expand as string[]) : [];
    return {
      ...pi,
      ...(e.includes('latest_charge') && pi.latest_charge ? { latest_charge: charges.get(pi.latest_charge) } : {}),
      ...(e.includes('payment_method') && pi.payment_method
        ? { payment_method: methodView(methodOf(pi.payment_method as string)) }
        : {}),
    };
  };
  /** What a publishable key sees of an intent: no metadata, customer or money flows. */
  const publicView = <T extends object>(it: T) => {
    const {
      metadata: _m,
      customer: _c,
      application_fee_amount: _f,
      transfer_data: _t,
      on_behalf_of: _o,
      ...shown
    } = it as T & Record<string, unknown>;
    return shown;
  };

  const paymentMethodTypes = (p: Params): string[] => {
    const given = (p.payment_method_types ?? p.allowed_payment_method_types) as string[] | undefined;
    const auto = (p.automatic_payment_methods as Params | undefined)?.enabled === 'true';
    const types = given ?? (auto ? PM_TYPES : ['card']);
    if (!Array.isArray(types) || types.length === 0)
      fail(400, 'invalid_request_error', 'Invalid array', { param: 'payment_method_types' });
    for (const t of types) {
      if (!PM_TYPES.includes(t))
        fail(
          400,
          'invalid_request_error',
          `The payment method type "${t}" is invalid. Please ensure the provided type is activated in your dashboard (https://dashboard.stripe.com/account/payments/settings) and your account is enabled for any preview features that you are trying to use.`,
          { param: 'payment_method_types' },
        );
    }
    return types;
  };

  const createIntent = (p: Params, auth: 'secret' | 'publishable'): PaymentIntent => {
    const amount = int(p.amount, 'amount');
    if (amount < 50)
      fail(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', {
        code: 'amount_too_small',
        param: 'amount',
      });
    const method = p.payment_method
      ? methodOf(String(p.payment_method))
      : p.payment_method_data
        ? createMethod(p.payment_method_data as Params, auth)
        : null;
    const capture = p.capture_method === 'manual' ? 'manual' : 'automatic';
    const destination = (p.transfer_data as Params | undefined)?.destination as string | undefined;
    if (destination !== undefined && !accounts.has(destination)) missing('account', destination);
    const fee = p.application_fee_amount === undefined ? null : int(p.application_fee_amount, 'application_fee_amount');
    if (fee !== null && !destination)
      fail(
        400,
        'invalid_request_error',
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
        { param: 'application_fee_amount' },
      );
    if (fee !== null && fee > amount)
      fail(400, 'invalid_request_error', 'The application fee cannot be greater than the amount.', {
        param: 'application_fee_amount',
      });
    const future = p.setup_future_usage as string | undefined;
    if (future !== undefined && future !== 'on_session' && future !== 'off_session')
      fail(400, 'invalid_request_error', `Invalid setup_future_usage: must be one of on_session or off_session`, {
        param: 'setup_future_usage',
      });
    if (p.customer !== undefined && !customers.has(String(p.customer))) missing('customer', String(p.customer));
    const pid = id('pi');
    const pi: PaymentIntent = {
      id: pid,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: String(p.currency ?? 'usd'),
      status: 'requires_payment_method',
      capture_method: capture,
      client_secret: secretFor(pid),
      customer: (p.customer as string) ?? null,
      payment_method: method?.id ?? null,
      payment_method_types: paymentMethodTypes(p),
      allowed_payment_method_types:
        (p.allowed_payment_method_types as Stripe.PaymentIntent.AllowedPaymentMethodType[]) ?? null,
      setup_future_usage: (future as Stripe.PaymentIntent.SetupFutureUsage) ?? null,
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
    if (method) pi.status = 'requires_confirmation';
    emit('payment_intent.created', pi);
    if (p.confirm !== 'true' || !method) return pi;
    return confirmPayment(pi, { ...p, payment_method: method.id, payment_method_data: undefined }, 'create', auth);
  };

  const attachToCustomer = (it: AnyIntent) => {
    const m = it.payment_method ? methods.get(it.payment_method as string) : undefined;
    if (m && it.customer && !m.customer) {
      m.customer = it.customer as string;
      emit('payment_method.attached', methodView(m));
    }
  };
  const microdepositAction = (it: AnyIntent) =>
    ({
      type: 'verify_with_microdeposits',
      verify_with_microdeposits: {
        arrival_date: now() + 2 * 86_400,
        hosted_verification_url: `${baseUrl()}/microdeposit/${it.id}`,
        microdeposit_type: 'descriptor_code',
      },
    }) as Stripe.PaymentIntent.NextAction;
  const challengeAction = (it: AnyIntent, p: Params, number: string) => {
    const frame = p.use_stripe_sdk === 'true';
    challenges.set(it.id, { returnUrl: String(p.return_url ?? ''), number, frame });
    const url = `${baseUrl()}/3ds/${it.id}`;
    return (frame
      ? {
          type: 'use_stripe_sdk',
          use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: url, source: id('src') },
        }
      : {
          type: 'redirect_to_url',
          redirect_to_url: { url, return_url: String(p.return_url) },
        }) as unknown as Stripe.PaymentIntent.NextAction;
  };
  /** Only an intent still waiting for its customer can be confirmed (a paid or canceled one: Stripe's unexpected_state). */
  const confirmable = (it: AnyIntent) => {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(it.status)) {
      const name = it.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
      fail(400, 'invalid_request_error', `You cannot confirm this ${name} because it has a status of ${it.status}.`, {
        code: `${it.object}_unexpected_state`,
        [it.object]: it,
      });
    }
  };
  /** The PaymentMethod a confirm names: an existing one, one made from payment_method_data, or the intent's own. */
  const methodForConfirm = (it: AnyIntent, p: Params, auth: 'secret' | 'publishable') => {
    const m = p.payment_method
      ? methodOf(String(p.payment_method))
      : p.payment_method_data
        ? createMethod(p.payment_method_data as Params, auth)
        : it.payment_method
          ? methodOf(it.payment_method as string)
          : null;
    const name = it.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
    if (!m)
      return fail(
        400,
        'invalid_request_error',
        `You cannot confirm this ${name} because it's missing a payment method. To confirm the ${name} with ${it.customer ?? 'a customer'}, specify a payment method attached to this customer along with the customer ID.`,
        { code: `${it.object}_unexpected_state` },
      );
    if (!it.payment_method_types.includes(m.type)) {
      fail(
        400,
        'invalid_request_error',
        `The PaymentMethod provided (${m.type}) is not allowed for this ${name}. Please attach a PaymentMethod of one of the following types: ${it.payment_method_types.join(', ')}.`,
        { code: 'payment_intent_incompatible_payment_method', param: 'payment_method' },
      );
    }
    if (m.customer && it.customer && m.customer !== it.customer)
      fail(400, 'invalid_request_error', 'The provided PaymentMethod belongs to another customer.', {
        param: 'payment_method',
      });
    if (
      m.type === 'us_bank_account' &&
      !m.us_bank_account?.financial_connections_account &&
      p.mandate_data === undefined &&
      auth === 'publishable'
    ) {
      fail(400, 'invalid_request_error', 'mandate_data is required to confirm with a us_bank_account PaymentMethod.', {
        param: 'mandate_data',
        code: 'parameter_missing',
      });
    }
    return m;
  };

  /**
   * Confirms a PaymentIntent: bank debits go processing (verified through Financial Connections) or
   * wait for microdeposits; cards may ask for 3-D Secure (Stripe.js's modal when it sends
   * `use_stripe_sdk`, else a redirect to return_url); then the network answers.
   * `via: 'create'` is `confirm=true` on create: Remit's older server-side bank debit goes straight to processing.
   */
  const confirmPayment = (
    pi: PaymentIntent,
    p: Params,
    via: 'create' | 'confirm',
    auth: 'secret' | 'publishable',
  ): PaymentIntent => {
    confirmable(pi);
    const method = methodForConfirm(pi, p, auth);
    pi.payment_method = method.id;
    pi.last_payment_error = null;
    pi.next_action = null;
    if (p.setup_future_usage === 'off_session' || p.setup_future_usage === 'on_session')
      pi.setup_future_usage = p.setup_future_usage;
    if (method.type === 'us_bank_account') {
      if (via === 'create' || method.us_bank_account?.financial_connections_account) {
        pi.status = 'processing';
        attachToCustomerIfKept(pi);
        emit('payment_intent.processing', pi);
      } else {
        pi.status = 'requires_action';
        pi.next_action = microdepositAction(pi);
        emit('payment_intent.requires_action', pi);
      }
      return pi;
    }
    const card = ((p.payment_method_options as Params | undefined)?.card ?? {}) as Record<string, string>;
    if ((THREE_DS.has(method.number ?? '') || card.request_three_d_secure === 'challenge') && !challenged.has(pi.id)) {
      // Stripe's redirect: its page, then back to return_url (off-session: no one to ask, a decline).
      if (p.off_session === 'true' || (!p.return_url && p.use_stripe_sdk !== 'true')) {
        pi.last_payment_error = {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'Your card was declined. This transaction requires authentication.',
        } as unknown as Stripe.PaymentIntent.LastPaymentError;
        emit('payment_intent.payment_failed', pi);
        return fail(402, 'card_error', 'Your card was declined. This transaction requires authentication.', {
          code: 'authentication_required',
          decline_code: 'authentication_required',
          payment_intent: pi,
        });
      }
      pi.status = 'requires_action';
      pi.next_action = challengeAction(pi, p, method.number ?? '');
      emit('payment_intent.requires_action', pi);
      return pi;
    }
    return chargeIntent(pi, method.number ?? '');
  };
  const attachToCustomerIfKept = (pi: PaymentIntent) => {
    if (pi.setup_future_usage) attachToCustomer(pi);
  };

  const cardOf = (pi: PaymentIntent) => {
    const c = pi.payment_method ? methods.get(pi.payment_method as string)?.card : null;
    return c ? { brand: c.brand, last4: c.last4, exp_month: c.exp_month, exp_year: c.exp_year } : null;
  };

  /** The card network's answer on a confirmed PaymentIntent: a charge, declined or approved (held or captured). */
  const chargeIntent = (pi: PaymentIntent, number: string): PaymentIntent => {
    const amount = pi.amount;
    const capture = pi.capture_method;
    const decline = DECLINES[number] ?? DECLINES_ON_CHARGE[number];
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
      payment_method_details: { type: 'card', ...(cardOf(pi) ? { card: cardOf(pi)! } : {}) },
      failure_code: decline?.code ?? null,
      failure_message: decline?.message ?? null,
    };
    charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    if (decline) {
      const error = {
        type: 'card_error',
        ...decline,
        charge: charge.id,
        doc_url: `https://docs.stripe.com/error-codes/${decline.code}`,
      };
      pi.status = 'requires_payment_method';
      pi.next_action = null;
      pi.last_payment_error = error as unknown as Stripe.PaymentIntent.LastPaymentError;
      emit('charge.failed', charge);
      emit('payment_intent.payment_failed', pi);
      return fail(402, 'card_error', decline.message, { ...decline, charge: charge.id, payment_intent: pi });
    }
    pi.next_action = null;
    attachToCustomerIfKept(pi);
    if (capture === 'manual') {
      pi.status = 'requires_capture';
      pi.amount_capturable = amount;
      emit('payment_intent.amount_capturable_updated', pi);
    } else {
      pi.status = 'succeeded';
      pi.amount_received = amount;
      charge.captured = true;
      charge.amount_captured = amount;
      emit('charge.succeeded', charge);
      emit('payment_intent.succeeded', pi);
    }
    return pi;
  };

  const intent = (pid: string) => paymentIntents.get(pid) ?? missing('payment_intent', pid);
  const setupIntent = (sid: string) => setupIntents.get(sid) ?? missing('setup_intent', sid);
  const unexpected = (pi: PaymentIntent, action: string): never =>
    fail(
      400,
      'invalid_request_error',
      `This PaymentIntent could not be ${action} because it has a status of ${pi.status}.`,
      {
        code: 'payment_intent_unexpected_state',
        payment_intent: pi,
      },
    );

  const createSetupIntent = (p: Params, auth: 'secret' | 'publishable'): SetupIntent => {
    if (p.customer !== undefined && !customers.has(String(p.customer))) missing('customer', String(p.customer));
    const usage = (p.usage as string | undefined) ?? 'off_session';
    if (usage !== 'on_session' && usage !== 'off_session')
      fail(400, 'invalid_request_error', 'Invalid usage: must be one of on_session or off_session', { param: 'usage' });
    const sid = id('seti');
    const si: SetupIntent = {
      id: sid,
      object: 'setup_intent',
      client_secret: secretFor(sid),
      customer: (p.customer as string) ?? null,
      payment_method: null,
      payment_method_types: paymentMethodTypes(p),
      allowed_payment_method_types:
        (p.allowed_payment_method_types as Stripe.SetupIntent.AllowedPaymentMethodType[]) ?? null,
      status: 'requires_payment_method',
      usage,
      metadata: (p.metadata as Record<string, string>) ?? {},
      created: now(),
      livemode: false,
      last_setup_error: null,
      next_action: null,
      cancellation_reason: null,
      description: (p.description as string) ?? null,
    };
    setupIntents.set(si.id, si);
    emit('setup_intent.created', si);
    if (p.payment_method) {
      si.payment_method = methodOf(String(p.payment_method)).id;
      si.status = 'requires_confirmation';
    }
    return p.confirm === 'true' ? confirmSetup(si, p, auth) : si;
  };

  const succeedSetup = (si: SetupIntent) => {
    si.status = 'succeeded';
    si.next_action = null;
    si.last_setup_error = null;
    attachToCustomer(si);
    emit('setup_intent.succeeded', si);
    return si;
  };
  const failSetup = (si: SetupIntent, error: Record<string, unknown>) => {
    si.status = 'requires_payment_method';
    si.next_action = null;
    si.last_setup_error = error as unknown as Stripe.SetupIntent.LastSetupError;
    emit('setup_intent.setup_failed', si);
  };

  /** Confirms a SetupIntent: as a payment, without the money (a card's decline still declines). */
  const confirmSetup = (si: SetupIntent, p: Params, auth: 'secret' | 'publishable'): SetupIntent => {
    confirmable(si);
    const method = methodForConfirm(si, p, auth);
    si.payment_method = method.id;
    si.last_setup_error = null;
    if (method.type === 'us_bank_account') {
      if (method.us_bank_account?.financial_connections_account) return succeedSetup(si);
      si.status = 'requires_action';
      si.next_action = microdepositAction(si) as unknown as Stripe.SetupIntent.NextAction;
      emit('setup_intent.requires_action', si);
      return si;
    }
    if (THREE_DS.has(method.number ?? '') && !challenged.has(si.id)) {
      if (!p.return_url && p.use_stripe_sdk !== 'true') {
        failSetup(si, {
          type: 'card_error',
          code: 'authentication_required',
          decline_code: 'authentication_required',
          message: 'Your card was declined. This transaction requires authentication.',
        });
        return fail(402, 'card_error', 'Your card was declined. This transaction requires authentication.', {
          code: 'authentication_required',
          decline_code: 'authentication_required',
          setup_intent: si,
        });
      }
      si.status = 'requires_action';
      si.next_action = challengeAction(si, p, method.number ?? '') as unknown as Stripe.SetupIntent.NextAction;
      emit('setup_intent.requires_action', si);
      return si;
    }
    return answerSetupCard(si, method.number ?? '');
  };
  const answerSetupCard = (si: SetupIntent, number: string): SetupIntent => {
    const decline = DECLINES[number];
    if (!decline) return succeedSetup(si);
    const error = { type: 'card_error', ...decline, doc_url: `https://docs.stripe.com/error-codes/${decline.code}` };
    failSetup(si, error);
    return fail(402, 'card_error', decline.message, { ...decline, setup_intent: si });
  };

  /** Microdeposits checked (Stripe's API, or its hosted page): the debit goes processing, a SetupIntent succeeds. */
  const verifyMicrodeposits = (it: AnyIntent, p: Params): AnyIntent => {
    const name = it.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
    if (it.status !== 'requires_action' || it.next_action?.type !== 'verify_with_microdeposits') {
      return fail(
        400,
        'invalid_request_error',
        `This ${name} does not have microdeposits to verify (status ${it.status}).`,
        { code: `${it.object}_unexpected_state` },
      );
    }
    const code = p.descriptor_code as string | undefined;
    const amounts = p.amounts as string[] | undefined;
    if (code === undefined && amounts === undefined)
      fail(400, 'invalid_request_error', 'Missing required param: descriptor_code.', {
        param: 'descriptor_code',
        code: 'parameter_missing',
      });
    const ok =
      code !== undefined
        ? code.trim().toUpperCase() === MICRODEPOSIT_CODE
        : Array.isArray(amounts) && [...amounts].sort().join() === MICRODEPOSIT_AMOUNTS.join();
    if (!ok) {
      const tries = (verifyAttempts.get(it.id) ?? 0) + 1;
      verifyAttempts.set(it.id, tries);
      if (tries >= 3) {
        const error = {
          type: 'invalid_request_error',
          code: 'payment_method_microdeposit_verification_attempts_exceeded',
          message: 'You have exceeded the number of allowed verification attempts.',
        };
        if (it.object === 'setup_intent') failSetup(it, error);
        else {
          Object.assign(it, { status: 'requires_payment_method', next_action: null, last_payment_error: error });
          emit('payment_intent.payment_failed', it);
        }
        return fail(400, 'invalid_request_error', error.message, { code: error.code });
      }
      const left = `You have ${3 - tries} verification attempts remaining.`;
      return code !== undefined
        ? fail(
            400,
            'invalid_request_error',
            `The verification code provided does not match the code that was sent to the bank account. ${left}`,
            { code: 'payment_method_microdeposit_verification_descriptor_code_mismatch', param: 'descriptor_code' },
          )
        : fail(
            400,
            'invalid_request_error',
            `The amounts provided do not match the amounts that were sent to the bank account. ${left}`,
            { code: 'payment_method_microdeposit_verification_amounts_mismatch', param: 'amounts' },
          );
    }
    if (it.object === 'setup_intent') return succeedSetup(it);
    it.status = 'processing';
    it.next_action = null;
    attachToCustomerIfKept(it);
    emit('payment_intent.processing', it);
    return it;
  };

  /** Stripe.js's Financial Connections step: the customer links Test Institution's account (instant verification). */
  const linkAccountSession = () => {
    const fca = {
      id: id('fca'),
      object: 'financial_connections.account',
      institution_name: 'Test Institution',
      last4: '6789',
      category: 'cash',
      subcategory: 'checking',
      status: 'active',
    };
    linked.set(fca.id, { last4: fca.last4, institution: fca.institution_name });
    return {
      id: id('fcsess'),
      object: 'financial_connections.session',
      client_secret: secretFor('fcsess'),
      livemode: false,
      accounts: { object: 'list', data: [fca], has_more: false, url: '/v1/financial_connections/accounts' },
    };
  };

  /** Stripe's search query language, the part reconciliation uses: clauses joined by AND (or OR). */
  const searchIntents = (query: string): PaymentIntent[] => {
    const joiner = / OR /i.test(query) ? / OR /i : / AND /i;
    const clauses = query
      .trim()
      .split(joiner)
      .map((c) => c.trim());
    const tests = clauses.map((c) => {
      const m = c.match(
        /^(-?)(?:metadata\[['"]([\w.-]+)['"]\]|(status|currency|customer|amount|created))\s*(:|>=|<=|>|<)\s*(?:['"]([^'"]*)['"]|(null)|(\d+))$/,
      );
      if (!m) return fail(400, 'invalid_request_error', `Unsupported search query: ${query}`, { param: 'query' });
      const [, neg, key, field, op, str, nul, num] = m;
      const value = num ?? str;
      const test = (pi: PaymentIntent): boolean => {
        const actual: unknown = key ? pi.metadata[key!] : (pi as unknown as Record<string, unknown>)[field!];
        if (nul) return actual === undefined || actual === null;
        if (op === ':') return String(actual) === value;
        const a = Number(actual);
        const b = Number(value);
        return op === '>' ? a > b : op === '>=' ? a >= b : op === '<' ? a < b : a <= b;
      };
      return neg ? (pi: PaymentIntent) => !test(pi) : test;
    });
    const all = [...paymentIntents.values()].reverse();
    return all.filter((pi) => (joiner.source.includes('OR') ? tests.some((t) => t(pi)) : tests.every((t) => t(pi))));
  };
  const limitOf = (p: Params) => {
    const l = p.limit === undefined ? 10 : int(p.limit, 'limit');
    if (l < 1 || l > 100)
      fail(400, 'invalid_request_error', 'Invalid limit: must be between 1 and 100', { param: 'limit' });
    return l;
  };
  /** A list page as Stripe shows it: newest first, `starting_after` / `ending_before` by id. */
  const listPage = <T extends { id: string; created: number }>(
    all: T[],
    p: Params,
    url: string,
    shape: (x: T) => unknown = (x) => x,
  ) => {
    const created = (p.created ?? {}) as Record<string, string>;
    let rows = all.filter(
      (x) =>
        (created.gte === undefined || x.created >= Number(created.gte)) &&
        (created.gt === undefined || x.created > Number(created.gt)) &&
        (created.lte === undefined || x.created <= Number(created.lte)) &&
        (created.lt === undefined || x.created < Number(created.lt)),
    );
    if (p.starting_after) rows = rows.slice(rows.findIndex((x) => x.id === p.starting_after) + 1);
    if (p.ending_before)
      rows = rows.slice(
        0,
        Math.max(
          0,
          rows.findIndex((x) => x.id === p.ending_before),
        ),
      );
    const limit = limitOf(p);
    return { object: 'list', data: rows.slice(0, limit).map(shape), has_more: rows.length > limit, url };
  };

  /** Who may call what with the publishable key: Stripe.js's own calls, each intent only with its client secret. */
  const PUBLISHABLE = [
    /^POST \/v1\/payment_methods$/,
    /^GET \/v1\/(payment|setup)_intents\/[^/]+$/,
    /^POST \/v1\/(payment|setup)_intents\/[^/]+\/(confirm|verify_microdeposits|link_account_sessions)$/,
  ];
  const byClientSecret = <T extends AnyIntent>(it: T, p: Params, auth: 'secret' | 'publishable'): T => {
    if (auth === 'publishable' && p.client_secret !== it.client_secret) {
      const name = it.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent';
      fail(
        400,
        'invalid_request_error',
        `The client_secret provided does not match the client_secret associated with the ${name}.`,
        { code: `${it.object}_invalid_parameter`, param: 'client_secret' },
      );
    }
    return it;
  };

  const expandedData = (expand: unknown) =>
    Array.isArray(expand) ? (expand as string[]).map((x) => x.replace(/^data\./, '')) : [];

  const route = (method: string, path: string, p: Params, auth: 'secret' | 'publishable'): unknown => {
    let m: RegExpMatchArray | null;
    if (auth === 'publishable' && !PUBLISHABLE.some((r) => r.test(`${method} ${path}`)))
      return fail(401, 'invalid_request_error', PUBLISHABLE_MESSAGE);
    const shown = (x: object) => (auth === 'publishable' ? publicView(x) : x);
    if (method === 'POST' && path === '/v1/payment_methods') return methodView(createMethod(p, auth));
    if (method === 'GET' && path === '/v1/payment_methods') {
      const rows = [...methods.values()]
        .reverse()
        .filter((x) => x.customer === p.customer && (p.type === undefined || x.type === p.type));
      return listPage(rows, p, '/v1/payment_methods', methodView);
    }
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)$/)) && method === 'GET') return methodView(methodOf(m[1]!));
    if ((m = path.match(/^\/v1\/payment_methods\/([^/]+)\/(attach|detach)$/)) && method === 'POST') {
      const pm = methodOf(m[1]!);
      if (m[2] === 'attach') {
        const c = String(p.customer ?? '');
        if (!customers.has(c)) missing('customer', c);
        if (pm.customer && pm.customer !== c)
          fail(
            400,
            'invalid_request_error',
            'The payment method you provided has already been attached to a customer.',
            { code: 'payment_method_unexpected_state' },
          );
        pm.customer = c;
      } else pm.customer = null;
      return methodView(pm);
    }
    if (method === 'POST' && path === '/v1/customers') {
      const c: Customer = {
        id: id('cus'),
        object: 'customer',
        created: now(),
        livemode: false,
        metadata: (p.metadata as Record<string, string>) ?? {},
        email: (p.email as string) ?? null,
        name: (p.name as string) ?? null,
      };
      customers.set(c.id, c);
      if (p.payment_method) methodOf(String(p.payment_method)).customer = c.id;
      return c;
    }
    if ((m = path.match(/^\/v1\/customers\/([^/]+)$/)) && method === 'GET')
      return customers.get(m[1]!) ?? missing('customer', m[1]!);
    if ((m = path.match(/^\/v1\/customers\/([^/]+)\/payment_methods$/)) && method === 'GET') {
      const rows = [...methods.values()]
        .reverse()
        .filter((x) => x.customer === m![1] && (p.type === undefined || x.type === p.type));
      return listPage(rows, p, `/v1/customers/${m[1]}/payment_methods`, methodView);
    }
    if (method === 'POST' && path === '/v1/payment_intents') return view(createIntent(p, auth), p.expand);
    if (method === 'GET' && path === '/v1/payment_intents') {
      const rows = [...paymentIntents.values()]
        .reverse()
        .filter((x) => p.customer === undefined || x.customer === p.customer);
      return listPage(rows, p, '/v1/payment_intents', (pi) => view(pi, expandedData(p.expand)));
    }
    if (method === 'GET' && path === '/v1/payment_intents/search') {
      const all = searchIntents(String(p.query ?? ''));
      const offset = p.page ? Number(String(p.page).replace(/^page_/, '')) || 0 : 0;
      const limit = limitOf(p);
      const data = all
        .slice(offset, offset + limit)
        .map((pi) => view(pi, ['latest_charge', ...expandedData(p.expand)]));
      const more = all.length > offset + limit;
      return {
        object: 'search_result',
        data,
        has_more: more,
        next_page: more ? `page_${offset + limit}` : null,
        url: '/v1/payment_intents/search',
      };
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)$/)) && method === 'GET')
      return shown(view(byClientSecret(intent(m[1]!), p, auth), p.expand));
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      const changesMoney = [
        'amount',
        'application_fee_amount',
        'capture_method',
        'setup_future_usage',
        'allowed_payment_method_types',
        'payment_method_types',
      ].some((k) => p[k] !== undefined);
      if (
        changesMoney &&
        !['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status)
      ) {
        fail(
          400,
          'invalid_request_error',
          `This PaymentIntent's amount could not be updated because it has a status of ${pi.status}. You may only update the amount of a PaymentIntent with one of the following statuses: requires_payment_method, requires_confirmation, requires_action.`,
          { code: 'payment_intent_unexpected_state', payment_intent: pi },
        );
      }
      if (p.amount !== undefined) pi.amount = int(p.amount, 'amount');
      if (p.application_fee_amount !== undefined)
        pi.application_fee_amount = int(p.application_fee_amount, 'application_fee_amount');
      if (p.capture_method !== undefined) pi.capture_method = p.capture_method === 'manual' ? 'manual' : 'automatic';
      if (p.setup_future_usage !== undefined)
        pi.setup_future_usage = (p.setup_future_usage || null) as Stripe.PaymentIntent.SetupFutureUsage | null;
      if (p.allowed_payment_method_types !== undefined || p.payment_method_types !== undefined) {
        pi.payment_method_types = paymentMethodTypes(p);
        pi.allowed_payment_method_types =
          (p.allowed_payment_method_types as Stripe.PaymentIntent.AllowedPaymentMethodType[]) ?? null;
      }
      if (p.metadata) pi.metadata = { ...pi.metadata, ...(p.metadata as Record<string, string>) };
      if (p.description !== undefined) pi.description = String(p.description);
      return pi;
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/confirm$/)) && method === 'POST') {
      const pi = byClientSecret(intent(m[1]!), p, auth);
      try {
        return shown(view(confirmPayment(pi, p, 'confirm', auth), p.expand));
      } catch (e) {
        if (e instanceof StripeFailure && auth === 'publishable' && e.error.payment_intent)
          e.error.payment_intent = publicView(e.error.payment_intent as object);
        throw e;
      }
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/verify_microdeposits$/)) && method === 'POST') {
      return shown(verifyMicrodeposits(byClientSecret(intent(m[1]!), p, auth), p));
    }
    if ((m = path.match(/^\/v1\/(payment|setup)_intents\/([^/]+)\/link_account_sessions$/)) && method === 'POST') {
      const it = m[1] === 'payment' ? intent(m[2]!) : setupIntent(m[2]!);
      byClientSecret(it, p, auth);
      return linkAccountSession();
    }
    if (method === 'POST' && path === '/v1/setup_intents') return createSetupIntent(p, auth);
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)$/)) && method === 'GET') {
      const si = byClientSecret(setupIntent(m[1]!), p, auth);
      const e = Array.isArray(p.expand) ? (p.expand as string[]) : [];
      return shown(
        e.includes('payment_method') && si.payment_method
          ? { ...si, payment_method: methodView(methodOf(si.payment_method as string)) }
          : si,
      );
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)\/confirm$/)) && method === 'POST') {
      const si = byClientSecret(setupIntent(m[1]!), p, auth);
      try {
        return shown(confirmSetup(si, p, auth));
      } catch (e) {
        if (e instanceof StripeFailure && auth === 'publishable' && e.error.setup_intent)
          e.error.setup_intent = publicView(e.error.setup_intent as object);
        throw e;
      }
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)\/verify_microdeposits$/)) && method === 'POST') {
      return shown(verifyMicrodeposits(byClientSecret(setupIntent(m[1]!), p, auth), p));
    }
    if ((m = path.match(/^\/v1\/setup_intents\/([^/]+)\/cancel$/)) && method === 'POST') {
      const si = setupIntent(m[1]!);
      if (si.status === 'succeeded' || si.status === 'canceled' || si.status === 'processing') {
        fail(
          400,
          'invalid_request_error',
          `You cannot cancel this SetupIntent because it has a status of ${si.status}.`,
          { code: 'setup_intent_unexpected_state', setup_intent: si },
        );
      }
      si.status = 'canceled';
      si.next_action = null;
      si.cancellation_reason = (p.cancellation_reason as Stripe.SetupIntent.CancellationReason) ?? null;
      emit('setup_intent.canceled', si);
      return si;
    }
    if (method === 'GET' && path === '/v1/events') {
      const rows = [...outbox.events].reverse().filter((e) => p.type === undefined || e.type === p.type);
      return listPage(rows, p, '/v1/events');
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/capture$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status !== 'requires_capture') return unexpected(pi, 'captured');
      const amount =
        p.amount_to_capture === undefined ? pi.amount_capturable : int(p.amount_to_capture, 'amount_to_capture');
      if (amount > pi.amount_capturable) {
        fail(
          400,
          'invalid_request_error',
          'The amount to capture must be less than or equal to the amount capturable.',
          { param: 'amount_to_capture' },
        );
      }
      if (p.application_fee_amount !== undefined) {
        if (!pi.transfer_data)
          fail(
            400,
            'invalid_request_error',
            'Cannot apply an application fee to a PaymentIntent without a destination.',
            { param: 'application_fee_amount' },
          );
        const fee = int(p.application_fee_amount, 'application_fee_amount');
        if (fee > amount)
          fail(400, 'invalid_request_error', 'The application fee cannot be greater than the amount to capture.', {
            param: 'application_fee_amount',
          });
        pi.application_fee_amount = fee;
      }
      pi.status = 'succeeded';
      pi.amount_received = amount;
      pi.amount_capturable = 0;
      const ch = charges.get(pi.latest_charge!)!;
      ch.captured = true;
      ch.amount_captured = amount;
      emit('charge.captured', ch);
      emit('payment_intent.succeeded', pi);
      return pi;
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/cancel$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing')
        return unexpected(pi, 'canceled');
      pi.status = 'canceled';
      pi.amount_capturable = 0;
      pi.canceled_at = now();
      pi.cancellation_reason = (p.cancellation_reason as Stripe.PaymentIntent.CancellationReason) ?? null;
      pi.next_action = null;
      challenges.delete(pi.id);
      emit('payment_intent.canceled', pi);
      return pi;
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)\/increment_authorization$/)) && method === 'POST') {
      const pi = intent(m[1]!);
      if (pi.status !== 'requires_capture') return unexpected(pi, 'incremented');
      const amount = int(p.amount, 'amount');
      if (amount <= pi.amount)
        fail(400, 'invalid_request_error', 'The amount must be greater than the current amount.', { param: 'amount' });
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
        fail(
          400,
          'invalid_request_error',
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((pi.amount_received - refunded) / 100).toFixed(2)})`,
          {
            code: 'amount_too_large',
            param: 'amount',
          },
        );
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
        fail(400, 'invalid_request_error', 'This charge has no transfer to reverse and no application fee to refund.', {
          param: 'reverse_transfer',
        });
      }
      refunds.push(r);
      if (ch) {
        ch.amount_refunded += amount;
        ch.refunded = ch.amount_refunded === ch.amount_captured;
        emit('charge.refunded', ch);
      }
      emit('refund.created', r);
      return r;
    }
    if (path === '/v1/payment_method_domains' || path.startsWith('/v1/payment_method_domains/'))
      return paymentMethodDomain(method, path, p);
    if (method === 'POST' && path === '/v1/accounts') return createAccount(p);
    if (method === 'POST' && path === '/v1/account_links') return createAccountLink(p);
    if ((m = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const a = accounts.get(m[1]!) ?? missing('account', m[1]!);
      if (method === 'GET') return a;
      if (method === 'POST') {
        const tos = p.tos_acceptance as Record<string, string> | undefined;
        if (tos) {
          if (!tos.date || !tos.ip)
            fail(400, 'invalid_request_error', 'tos_acceptance needs date and ip.', { param: 'tos_acceptance' });
          a.tos_acceptance = {
            date: int(tos.date, 'tos_acceptance[date]'),
            ip: tos.ip!,
            user_agent: tos.user_agent ?? null,
          };
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

  /** Stripe's checks of an Account Link: a Custom account of ours, a known type, both addresses absolute. */
  function createAccountLink(p: Params): AccountLink {
    const account =
      typeof p.account === 'string'
        ? p.account
        : fail(400, 'invalid_request_error', 'Missing required param: account.', { param: 'account' });
    accounts.get(account) ?? missing('account', account);
    if (p.type !== 'account_onboarding' && p.type !== 'account_update')
      fail(400, 'invalid_request_error', 'Invalid type: must be one of account_onboarding, account_update.', {
        param: 'type',
      });
    for (const param of ['refresh_url', 'return_url'] as const) {
      const v = p[param];
      if (typeof v !== 'string' || !/^https?:\/\/[^/]/.test(v))
        fail(400, 'invalid_request_error', `Not a valid URL: ${param}.`, { param });
    }
    const options = p.collection_options as { fields?: string; future_requirements?: string } | undefined;
    if (options?.fields && !['currently_due', 'eventually_due'].includes(options.fields))
      fail(400, 'invalid_request_error', 'Invalid collection_options[fields].', {
        param: 'collection_options[fields]',
      });
    const created = now();
    const link: AccountLink = {
      object: 'account_link',
      created,
      expires_at: created + 300,
      url: `${baseUrl()}/setup/c/${account}/${randomBytes(9).toString('hex')}`,
      account,
      type: p.type as string,
      refresh_url: p.refresh_url as string,
      return_url: p.return_url as string,
      collection_options: options ?? null,
    };
    accountLinks.push(link);
    return link;
  }

  function createAccount(p: Params): Account {
    if (p.type !== 'custom') fail(400, 'invalid_request_error', 'Remit makes Custom accounts only.', { param: 'type' });
    const profile = (p.business_profile ?? {}) as Record<string, string>;
    const company = p.company as (Record<string, string> & { address?: Record<string, string> }) | undefined;
    const individual = p.individual as Record<string, string> | undefined;
    const bank = p.external_account as Record<string, string> | undefined;
    if (!bank?.routing_number || !bank.account_number)
      fail(400, 'invalid_request_error', 'Missing external_account.', { param: 'external_account' });
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
      business_profile: {
        name: profile.name ?? null,
        mcc: profile.mcc ?? null,
        url: profile.url ?? null,
        support_phone: profile.support_phone ?? null,
        support_email: profile.support_email ?? null,
      },
      company: company
        ? {
            name: company.name ?? null,
            phone: company.phone ?? null,
            tax_id_provided: !!company.tax_id,
            owners_provided: company.owners_provided === 'true',
            structure: (company.structure as Stripe.Account.Company.Structure) ?? undefined,
            address: {
              line1: company.address?.line1 ?? null,
              line2: null,
              city: company.address?.city ?? null,
              state: company.address?.state ?? null,
              postal_code: company.address?.postal_code ?? null,
              country: company.address?.country ?? null,
            },
          }
        : null,
      individual: individual
        ? {
            first_name: individual.first_name!,
            last_name: individual.last_name!,
            id_number_provided: !!individual.id_number,
          }
        : null,
      capabilities: Object.fromEntries(caps.map((c) => [c, 'pending' as const])),
      tos_acceptance: { date: null, ip: null, user_agent: null },
      requirements: noRequirements(),
      future_requirements: noRequirements(),
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
      // Stripe's API answers browsers from any origin (Stripe.js calls it from the merchant's page).
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Request-Id',
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(body);
  };

  /** `/v1/payment_method_domains`: the domains where the Payment Element may show wallets. */
  const paymentMethodDomain = (method: string, path: string, p: Params): unknown => {
    const active = { status: 'active' as const };
    if (path === '/v1/payment_method_domains') {
      if (method === 'GET') {
        const rows = [...domains.values()]
          .filter((d) => p.domain_name === undefined || d.domain_name === p.domain_name)
          .filter((d) => p.enabled === undefined || String(d.enabled) === p.enabled)
          .reverse();
        return { object: 'list', data: rows, has_more: false, url: path };
      }
      const name = String(p.domain_name ?? '');
      if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i.test(name))
        fail(400, 'invalid_request_error', `Invalid domain_name: ${name}`, { param: 'domain_name' });
      if ([...domains.values()].some((d) => d.domain_name === name))
        fail(400, 'invalid_request_error', `The domain ${name} is already registered.`, { param: 'domain_name' });
      const d: PaymentMethodDomain = {
        id: id('pmd'),
        object: 'payment_method_domain',
        domain_name: name,
        enabled: p.enabled !== 'false',
        created: now(),
        livemode: mode === 'live',
        apple_pay: active,
        google_pay: active,
        link: active,
        paypal: active,
      };
      domains.set(d.id, d);
      return d;
    }
    const m = path.match(/^\/v1\/payment_method_domains\/([^/]+)(\/validate)?$/);
    const d = (m && domains.get(m[1]!)) ?? missing('payment_method_domain', path.split('/')[3] ?? '');
    if (method === 'POST' && !m![2] && p.enabled !== undefined) d.enabled = p.enabled === 'true';
    return d;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, DELETE',
        'access-control-allow-headers': 'authorization, content-type, idempotency-key, stripe-version',
        'access-control-max-age': '300',
      });
      return res.end();
    }
    if (path.startsWith('/3ds/')) return challengePage(req, res, path, raw);
    if (path.startsWith('/microdeposit/')) return microdepositPage(req, res, path, raw);
    if (servePage(res, path, url.searchParams, frameData)) return;
    const params = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(raw);
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    const key = params.key;
    delete params.key;
    const auth =
      bearer === secretKey
        ? 'secret'
        : bearer === publishableKey || (bearer === undefined && key === publishableKey)
          ? 'publishable'
          : null;
    if (!auth) {
      return answer(
        res,
        401,
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            message: `Invalid API Key provided: ${String(bearer ?? key ?? '').slice(0, 12)}****`,
          },
        }),
      );
    }
    const idemKey = req.headers['idempotency-key'] as string | undefined;
    const fingerprint = `${method} ${path}\n${raw}`;
    const stored = idemKey && method === 'POST' ? idempotent.get(idemKey) : undefined;
    requests.push({ method, path, idempotencyKey: idemKey, params, replayed: !!stored, auth });
    const dropping = drops.find((d) => d.count > 0 && d.pattern.test(path));
    if (stored) {
      if (stored.request !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`;
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
      return answer(
        res,
        failing.status,
        JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred' } }),
      );
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(route(method, path, params, auth));
    } catch (e) {
      if (!(e instanceof StripeFailure)) throw e;
      status = e.status;
      body = JSON.stringify({ error: e.error });
    }
    if (idemKey && method === 'POST') idempotent.set(idemKey, { request: fingerprint, status, body });
    if (dropping) {
      // Done, and the answer lost: as a timeout or a crash between Stripe and us would look.
      dropping.count--;
      return req.socket.destroy();
    }
    answer(res, status, body);
  };

  /** What the Payment Element's frame is told about its intent (checked against the publishable key and client secret). */
  const frameData = (q: URLSearchParams): FrameData | null => {
    const secret = q.get('client_secret') ?? '';
    if (q.get('key') !== publishableKey) return null;
    const it = secret.startsWith('seti_')
      ? setupIntents.get(secret.split('_secret_')[0]!)
      : paymentIntents.get(secret.split('_secret_')[0]!);
    if (!it || it.client_secret !== secret) return null;
    const destination =
      it.object === 'payment_intent' && it.transfer_data ? accounts.get(it.transfer_data.destination) : undefined;
    return {
      kind: it.object,
      amount: it.object === 'payment_intent' ? it.amount : null,
      currency: it.object === 'payment_intent' ? it.currency : 'usd',
      types: it.payment_method_types,
      business: destination?.business_profile.name ?? 'Remit',
      apiUrl: baseUrl(),
      locale: q.get('locale') ?? 'auto',
      publishableKey,
      clientSecret: secret,
    };
  };

  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  const anyIntent = (iid: string): AnyIntent | undefined => paymentIntents.get(iid) ?? setupIntents.get(iid);

  /**
   * Stripe's 3-D Secure page, as a browser (or HTTP client) sees it: GET shows "Complete" and
   * "Fail"; either answers the challenge, then redirects to the return URL with the query Stripe
   * adds, or (Stripe.js's modal) tells the page that opened the frame.
   */
  const challengePage = (req: IncomingMessage, res: ServerResponse, path: string, _raw: string) => {
    const [, , iid, answerWord] = path.split('/');
    const waiting = challenges.get(iid ?? '');
    const it = anyIntent(iid ?? '');
    if (!waiting || !it) return html(res, 404, pages.missing('3D Secure', 'No such authentication.'));
    if (!answerWord || req.method !== 'POST') {
      const amount =
        it.object === 'payment_intent' ? `${(it.amount / 100).toFixed(2)} ${it.currency.toUpperCase()}` : null;
      return html(res, 200, pages.challenge(iid!, amount, waiting.frame));
    }
    challenges.delete(iid!);
    challenged.add(iid!);
    const failure = {
      type: 'invalid_request_error',
      code: `${it.object}_authentication_failure`,
      message: `The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this ${it.object === 'payment_intent' ? 'PaymentIntent' : 'SetupIntent'} again.`,
    };
    if (it.object === 'setup_intent') {
      if (answerWord === 'complete') {
        try {
          answerSetupCard(it, waiting.number);
        } catch {
          // A decline after authentication: the SetupIntent carries it (last_setup_error).
        }
      } else failSetup(it, failure);
    } else if (answerWord === 'complete') {
      try {
        chargeIntent(it, waiting.number);
      } catch {
        // A decline after authentication: the PaymentIntent carries it (last_payment_error).
      }
    } else {
      it.status = 'requires_payment_method';
      it.next_action = null;
      it.last_payment_error = failure as unknown as Stripe.PaymentIntent.LastPaymentError;
      emit('payment_intent.payment_failed', it);
    }
    const passed = it.status === 'succeeded' || it.status === 'requires_capture';
    if (waiting.frame) return html(res, 200, pages.challengeDone(iid!, passed));
    const back = new URL(waiting.returnUrl);
    const kind = it.object === 'payment_intent' ? 'payment_intent' : 'setup_intent';
    back.searchParams.set(kind, it.id);
    back.searchParams.set(`${kind}_client_secret`, it.client_secret ?? '');
    back.searchParams.set('redirect_status', passed ? 'succeeded' : 'failed');
    res.writeHead(302, { location: back.toString() });
    res.end();
  };

  /** Stripe's hosted microdeposit verification page (next_action.verify_with_microdeposits.hosted_verification_url). */
  const microdepositPage = (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    const iid = path.split('/')[2] ?? '';
    const it = anyIntent(iid);
    if (!it) return html(res, 404, pages.missing('Verify your bank account', 'No such verification.'));
    const business =
      it.object === 'payment_intent' && it.transfer_data
        ? (accounts.get(it.transfer_data.destination)?.business_profile.name ?? 'Remit')
        : 'Remit';
    if (req.method !== 'POST') {
      const waiting = it.status === 'requires_action' && it.next_action?.type === 'verify_with_microdeposits';
      return html(
        res,
        200,
        pages.microdeposits(iid, business, waiting ? null : 'This bank account is already verified.'),
      );
    }
    const code = String(parseForm(raw).descriptor_code ?? '');
    try {
      verifyMicrodeposits(it, { descriptor_code: code });
      return html(
        res,
        200,
        pages.microdeposits(iid, business, 'Thank you. Your bank account is verified; the payment is on its way.'),
      );
    } catch (e) {
      if (!(e instanceof StripeFailure)) throw e;
      return html(res, 400, pages.microdeposits(iid, business, null, String(e.error.message)));
    }
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  let reachable = true;
  baseUrl = () => `http://127.0.0.1:${port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    jsUrl: `http://127.0.0.1:${port}/v3/`,
    secretKey,
    publishableKey,
    webhookSecret,
    requests,
    paymentIntents,
    setupIntents,
    paymentMethods: methods,
    customers,
    refunds,
    accounts,
    persons,
    accountLinks,
    paymentMethodDomains: domains,
    events: outbox.events,
    deliveries: outbox.deliveries,
    deliverTo(url) {
      outbox.endpoint = url;
    },
    dropEvents: (iid, count = 1) => outbox.drop(iid, count),
    holdEvents: (iid, count = 1) => outbox.hold(iid, count),
    sendLate: (iid) => outbox.sendLate(iid),
    eventsSettled: () => outbox.settled(),
    intents: () =>
      [...paymentIntents.values()].map((pi) => ({
        id: pi.id,
        status: pi.status,
        amount: pi.amount,
        amount_received: pi.amount_received,
        amount_refunded: refunds.filter((r) => r.payment_intent === pi.id).reduce((a, r) => a + r.amount, 0),
        capture_method: pi.capture_method,
        metadata: { ...pi.metadata },
      })),
    reviewAccount(aid, enabled) {
      const a = accounts.get(aid);
      if (!a) throw new Error(`no account ${aid}`);
      a.charges_enabled = enabled;
      a.payouts_enabled = enabled;
      for (const c of Object.keys(a.capabilities)) a.capabilities[c] = enabled ? 'active' : 'inactive';
      return event('account.updated', structuredClone(a));
    },
    requireOf(aid, change) {
      const a = accounts.get(aid);
      if (!a) throw new Error(`no account ${aid}`);
      a.requirements = { ...a.requirements, ...change.requirements };
      a.future_requirements = { ...a.future_requirements, ...change.future_requirements };
      if (change.charges_enabled !== undefined) a.charges_enabled = change.charges_enabled;
      if (change.payouts_enabled !== undefined) a.payouts_enabled = change.payouts_enabled;
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
    async setReachable(on) {
      if (on === reachable) return;
      reachable = on;
      if (on) return new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      // The clients' kept-alive sockets see the close before their next request.
      await new Promise((r) => setTimeout(r, 50));
    },
    dropAnswers: (pattern, count) => drops.push({ pattern, count }),
    failRequests: (pattern, count, status = 500) => failures.push({ pattern, count, status }),
    returnAch(pid, reason = 'R01: Insufficient Funds') {
      const pi = intent(pid);
      if (pi.status !== 'succeeded') throw new Error(`${pid} is ${pi.status}, not succeeded`);
      const charge = charges.get(pi.latest_charge ?? '');
      if (!charge) throw new Error(`${pid} has no charge`);
      Object.assign(charge, {
        status: 'failed',
        paid: false,
        failure_code: 'insufficient_funds',
        failure_message: reason,
      });
      return emit('charge.failed', charge);
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
        pi.last_payment_error = {
          type: 'invalid_request_error',
          code: 'payment_method_microdeposit_failed',
          message: 'R01: Insufficient Funds',
        } as unknown as Stripe.PaymentIntent.LastPaymentError;
        pi.next_action = null;
      }
      if (outcome === 'succeeded') emit('charge.succeeded', charges.get(pi.latest_charge!)!);
      return emit(outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', pi);
    },
    event,
    sign,
    close: () => (reachable ? new Promise<void>((r) => server.close(() => r())) : Promise.resolve()),
  };
}

/** The settings that point Remit at this emulator: the API, both keys, the webhook secret and the Stripe.js stand-in. */
export const emulatedStripeEnv = (emu: StripeEmulator) => ({
  STRIPE_SECRET_KEY: emu.secretKey,
  STRIPE_PUBLISHABLE_KEY: emu.publishableKey,
  STRIPE_WEBHOOK_SECRET: emu.webhookSecret,
  REMIT_STRIPE_API_URL: emu.url,
  REMIT_STRIPE_JS_URL: emu.jsUrl,
});

/** The Stripe connector (sandbox) pointed at this emulator, as a test server takes it. */
export const emulatedStripe = (emu: StripeEmulator) => createProcessor('stripe', 'sandbox', emulatedStripeEnv(emu));

export {
  stripeJsConfirmPayment,
  stripeJsConfirmSetup,
  type StripeJsPayWith,
  type StripeJsResult,
} from './stripe-emulator/stripe-js-node.js';
