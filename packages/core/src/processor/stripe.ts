import Stripe from 'stripe';
import { errorMessage, luhnValid } from '@remit/contract';
import { RemitError } from '../errors.js';
import { deferCall, type DeferredCall } from './deferred.js';
import {
  OutcomeUnknown,
  ProcessorUnreachable,
  type AuthorizeResult,
  type CardToken,
  type Decline,
  type PaymentLookup,
  type Payee,
  type Processor,
} from './connector.js';
import { stripeAccounts } from './stripe-accounts.js';
import { registerWalletDomain } from './wallet-domains.js';

/**
 * The Stripe connector (REMIT_PROCESSOR=stripe), through the official `stripe` package only. Card
 * payments are PaymentIntents (`capture_method` manual for preauthorizations), ACH debits are
 * `us_bank_account` PaymentIntents, stored cards are Stripe PaymentMethods attached to a Stripe
 * Customer. Every call that creates or moves money sends the core's idempotency key.
 */
export interface StripeSettings {
  /** STRIPE_SECRET_KEY: `sk_live_…` or `sk_test_…` (test mode). */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: `whsec_…`, verifies `POST /stripe/webhooks`. */
  webhookSecret?: string;
  /** REMIT_STRIPE_API_URL: the API base; default Stripe's own (https://api.stripe.com). */
  apiUrl?: string;
  /** STRIPE_PUBLISHABLE_KEY: `pk_live_…` or `pk_test_…`, for Stripe.js on the pay page. */
  publishableKey?: string;
  /** REMIT_STRIPE_JS_URL: where the pay page loads Stripe.js from; default Stripe's own. */
  jsUrl?: string;
}

/** Stripe.js, as Stripe serves it. */
export const STRIPE_JS_URL = 'https://js.stripe.com/v3/';

/** Card numbers are entered in Stripe's fields only: the connector refuses to send one (never `card[number]`). */
export const CARD_ENTRY_BY_PROCESSOR_MESSAGE = errorMessage('card_entry_by_processor');

export interface StripeProcessor extends Processor {
  readonly stripe: Stripe;
  readonly cardEntry: { publishableKey: string; jsUrl: string };
  readonly webhookSecret: string | undefined;
}

/** Amounts are US dollars: Stripe's `amount` is in cents, as ours. */
const CURRENCY = 'usd';

/** The Stripe client for `settings`: REMIT_STRIPE_API_URL sets host, port and protocol. */
export function stripeClient(settings: StripeSettings): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 30_000, appInfo: { name: 'Remit' } };
  if (settings.apiUrl) {
    const url = new URL(settings.apiUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`REMIT_STRIPE_API_URL must be an http or https URL, not ${settings.apiUrl}`);
    config.host = url.hostname;
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
  }
  return new Stripe(settings.secretKey, config);
}

/** Stripe's decline as ours: the catalogue's decline codes and messages, the same as the simulator's. */
export function stripeDecline(e: { code?: string; decline_code?: string }, gatewayRef: string): Decline {
  const code =
    e.decline_code === 'insufficient_funds' || e.code === 'insufficient_funds'
      ? 'insufficient_funds'
      : e.code === 'expired_card' || e.decline_code === 'expired_card'
        ? 'expired_card'
        : e.code === 'incorrect_cvc' || e.decline_code === 'incorrect_cvc'
          ? 'incorrect_cvc'
          : e.code === 'authentication_required' || e.decline_code === 'authentication_required'
            ? 'authentication_required'
            : 'card_declined';
  const message = errorMessage(code as 'card_declined') ?? errorMessage('card_declined');
  return { approved: false, code, message, gatewayRef };
}

/**
 * A destination charge on the merchant's behalf: Stripe moves the amount to the connected account
 * and keeps our fee back as the application fee, so the merchant receives `net_amount`. The fee
 * never exceeds the amount (Stripe refuses that; a charge below our fixed fee is one Stripe's
 * $0.50 minimum already rules out).
 */
const onBehalfOf = (payee: Payee | undefined, amountCents: number) =>
  payee
    ? {
        on_behalf_of: payee.account,
        transfer_data: { destination: payee.account },
        application_fee_amount: feeWithin(payee.applicationFeeCents, amountCents),
      }
    : {};

const feeWithin = (feeCents: number, amountCents: number) => Math.min(Math.max(feeCents, 0), amountCents);

const isCardError = (e: unknown): e is Stripe.errors.StripeCardError => e instanceof Stripe.errors.StripeCardError;

/**
 * Stripe never answered (the connection failed or timed out, after the SDK's own retries) or
 * answered 5xx: it may have done the call. Anything else is a definite answer.
 */
export const outcomeUnknown = (e: unknown): boolean =>
  e instanceof Stripe.errors.StripeConnectionError ||
  (e instanceof Stripe.errors.StripeAPIError && (e.statusCode ?? 500) >= 500);

/**
 * Anything but a decline is no decision about the payment: 502 processor_error, the write rolled
 * back. An unknown outcome is thrown as `OutcomeUnknown`, which a caller that can record the
 * payment as `processing` catches (reconciliation then asks Stripe).
 */
function processorError(e: unknown): never {
  if (e instanceof RemitError) throw e;
  const cause = stripeCause(e);
  if (outcomeUnknown(e)) throw new OutcomeUnknown(cause);
  throw new RemitError('processor_error', undefined, { cause });
}

/** The operator's reason for a failed call (`Stripe: StripeConnectionError: … (ECONNREFUSED)`): Stripe's type, code and message. */
const stripeCause = (e: unknown) => {
  if (!(e instanceof Stripe.errors.StripeError)) return new Error(`Stripe: ${String(e)}`);
  const network = (e as { detail?: { code?: unknown } }).detail?.code;
  const detail = typeof network === 'string' ? ` (${network})` : '';
  return new Error(`Stripe: ${e.type}${e.code ? ` ${e.code}` : ''}: ${e.message}${detail}`);
};

/** A connection that was never made (refused, no such host, no route): the request never left, so Stripe did nothing. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const neverSent = (e: unknown): boolean =>
  e instanceof Stripe.errors.StripeConnectionError &&
  NEVER_SENT.has(String((e as { detail?: { code?: unknown } }).detail?.code));

/** Tries of a deferrable call, each looked at (the SDK's own retries are off for it), half a second more apart each time. */
const DEFERRABLE_TRIES = 3;
const RETRY_DELAY_MS = 500;

/** Stripe's code for a failed 3-D Secure challenge. */
const AUTHENTICATION_FAILED = 'payment_intent_authentication_failure';

/** A PaymentIntent as what it means for us (`lookupPayment`). */
export function intentOutcome(intent: Stripe.PaymentIntent): PaymentLookup {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
      return {
        state: 'approved',
        gatewayRef: intent.id,
        authCode: charge?.authorization_code ?? intent.id.slice(-6).toUpperCase(),
      };
    case 'requires_payment_method':
    case 'canceled': {
      const error = intent.last_payment_error;
      if (!error && intent.status === 'requires_payment_method') return { state: 'pending', gatewayRef: intent.id };
      if (error?.code === AUTHENTICATION_FAILED) {
        return {
          state: 'declined',
          gatewayRef: intent.id,
          code: 'three_ds_failed',
          message: error.message ?? 'The cardholder failed 3-D Secure authentication.',
        };
      }
      const d = stripeDecline({ code: error?.code, decline_code: error?.decline_code }, intent.id);
      // A bank debit's failure keeps the bank's own words (its return reason).
      const message =
        intent.payment_method_types.includes('us_bank_account') && error?.message ? error.message : d.message;
      return { state: 'declined', gatewayRef: intent.id, code: d.code, message };
    }
    default:
      return { state: 'pending', gatewayRef: intent.id };
  }
}

/** A stored card's token: the Stripe Customer and its PaymentMethod. */
const parseToken = (token: string) => {
  const [customer, paymentMethod] = token.split('/');
  return { customer: customer!, paymentMethod: paymentMethod! };
};

export function createStripeProcessor(settings: StripeSettings): StripeProcessor {
  const stripe = stripeClient(settings);

  /** A card number never goes to Stripe: it is typed into Stripe's own fields (issue 37). */
  const refuseCardNumber = (): never => {
    throw new RemitError('card_entry_by_processor', CARD_ENTRY_BY_PROCESSOR_MESSAGE);
  };

  const authorizeCard: Processor['authorizeCard'] = async (card, amountCents, opts): Promise<AuthorizeResult> => {
    let source: { payment_method: string; customer?: string; off_session?: boolean; return_url?: string };
    try {
      if ('token' in card) {
        const t = parseToken(card.token);
        source = { payment_method: t.paymentMethod, customer: t.customer, off_session: true };
      } else {
        return refuseCardNumber();
      }
    } catch (e) {
      if (isCardError(e)) return stripeDecline(e, '');
      // No PaymentIntent yet, so no money moved, whatever became of this call.
      if (outcomeUnknown(e)) throw new RemitError('processor_error', undefined, { cause: e });
      return processorError(e);
    }
    const cardOptions: Stripe.PaymentIntentCreateParams.PaymentMethodOptions.Card | null =
      opts.capture && !opts.requireAuthentication
        ? null
        : {
            ...(opts.capture ? {} : { request_incremental_authorization: 'if_available' as const }),
            ...(opts.requireAuthentication ? { request_three_d_secure: 'challenge' as const } : {}),
          };
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: CURRENCY,
          allowed_payment_method_types: ['card'],
          capture_method: opts.capture ? 'automatic' : 'manual',
          ...(cardOptions ? { payment_method_options: { card: cardOptions } } : {}),
          confirm: true,
          expand: ['latest_charge'],
          // Reconciliation finds the PaymentIntent of an unknown outcome by this key.
          metadata: { remit_key: opts.idempotencyKey },
          ...onBehalfOf(opts.payee, amountCents),
          ...source,
        },
        { idempotencyKey: opts.idempotencyKey },
      );
    } catch (e) {
      if (isCardError(e)) return stripeDecline(e, e.payment_intent?.id ?? '');
      return processorError(e);
    }
    if (intent.status === 'requires_action') {
      // 3-D Secure: nothing is held until the customer passes Stripe's challenge. Without a page to
      // send them to (a stored card charged by the API, or Stripe asking for Stripe.js), a decline.
      const redirect = intent.next_action?.type === 'redirect_to_url' ? intent.next_action.redirect_to_url?.url : null;
      return {
        ...stripeDecline({ code: 'authentication_required' }, intent.id),
        ...(redirect && opts.returnUrl ? { redirectUrl: redirect } : {}),
      };
    }
    const wanted = opts.capture ? 'succeeded' : 'requires_capture';
    if (intent.status !== wanted) return stripeDecline({}, intent.id);
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    return {
      approved: true,
      authCode: charge?.authorization_code ?? intent.id.slice(-6).toUpperCase(),
      gatewayRef: intent.id,
    };
  };

  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (e) {
      return processorError(e);
    }
  };

  /**
   * A call an unknown outcome defers (processor/deferred.ts) when the operation can be recorded
   * without its answer. Only a call that may have reached Stripe is deferred: when no try left this
   * machine (Stripe unreachable), Stripe did nothing, so it fails (502, the write rolled back).
   */
  const resendable = async (
    deferTo: DeferredCall[] | null | undefined,
    deferred: DeferredCall,
    run: (opts: { idempotencyKey: string; maxNetworkRetries: number }) => Promise<unknown>,
  ): Promise<void> => {
    let reached = false;
    for (let tried = 1; ; tried++) {
      try {
        await run({ idempotencyKey: deferred.idempotencyKey, maxNetworkRetries: 0 });
        return;
      } catch (e) {
        if (!outcomeUnknown(e)) return processorError(e);
        reached ||= !neverSent(e);
        if (tried < DEFERRABLE_TRIES) {
          await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * tried));
          continue;
        }
        if (!reached) throw new ProcessorUnreachable(stripeCause(e));
        if (deferCall(deferTo, deferred)) return;
        return processorError(e);
      }
    }
  };

  return {
    name: 'stripe',
    bookkeepingOnly: false,
    stripe,
    accounts: stripeAccounts(stripe, call),
    registerWalletDomain: (domain) => call(() => registerWalletDomain(stripe, domain)),
    webhookSecret: settings.webhookSecret,
    cardEntry: { publishableKey: settings.publishableKey ?? '', jsUrl: settings.jsUrl || STRIPE_JS_URL },
    checkCardNumber(number) {
      return luhnValid(number) ? null : 'Card number is not valid (Luhn check failed).';
    },
    authorizeCard,
    async capture({ gatewayRef, amountCents, applicationFeeCents, idempotencyKey, deferTo, reference }) {
      // A payment with a payee keeps back the fee of what is captured, not of what was held.
      const fee =
        applicationFeeCents == null ? {} : { application_fee_amount: feeWithin(applicationFeeCents, amountCents) };
      await resendable(
        deferTo,
        {
          kind: 'capture',
          gatewayRef,
          amountCents,
          reference: reference ?? null,
          applicationFeeCents,
          idempotencyKey,
        },
        (opts) => stripe.paymentIntents.capture(gatewayRef, { amount_to_capture: amountCents, ...fee }, opts),
      );
    },
    async cancel({ gatewayRef, idempotencyKey, deferTo, reference }) {
      await resendable(
        deferTo,
        { kind: 'cancel', gatewayRef, amountCents: null, reference: reference ?? null, idempotencyKey },
        (opts) => stripe.paymentIntents.cancel(gatewayRef, {}, opts),
      );
    },
    async refund({ gatewayRef, amountCents, reference, returnFee, idempotencyKey, deferTo }) {
      // A destination charge: the refund is taken back from the merchant's account (reverse_transfer);
      // our fee is returned only by a void, as the ledger records it (docs/going-live-stripe.md).
      await resendable(
        deferTo,
        { kind: 'refund', gatewayRef, amountCents, reference, returnFee, idempotencyKey },
        async (opts) => {
          const intent = await stripe.paymentIntents.retrieve(gatewayRef, {}, { maxNetworkRetries: 0 });
          const connected = intent.transfer_data
            ? { reverse_transfer: true, refund_application_fee: returnFee === true }
            : {};
          return stripe.refunds.create(
            { payment_intent: gatewayRef, amount: amountCents, metadata: { remit_record: reference }, ...connected },
            opts,
          );
        },
      );
    },
    async incrementAuthorization({ gatewayRef, amountCents, idempotencyKey }) {
      // A decrease earlier lowered only what will be captured: Stripe may already hold this much.
      const intent = await call(() => stripe.paymentIntents.retrieve(gatewayRef));
      if (intent.amount >= amountCents) return { approved: true };
      try {
        await stripe.paymentIntents.incrementAuthorization(gatewayRef, { amount: amountCents }, { idempotencyKey });
        return { approved: true };
      } catch (e) {
        if (isCardError(e)) return stripeDecline(e, gatewayRef);
        return processorError(e);
      }
    },
    async startAchDebit(input) {
      // Account numbers are typed into Stripe's fields and verified there (a SetupIntent): only a kept account is debited.
      if (!input.token) throw new RemitError('bank_entry_by_processor');
      const kept = parseToken(input.token);
      const intent = await call(() =>
        stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: CURRENCY,
            allowed_payment_method_types: ['us_bank_account'],
            customer: kept.customer,
            payment_method: kept.paymentMethod,
            // The mandate was accepted when the account was kept (the SetupIntent's).
            off_session: true,
            metadata: { remit_key: input.idempotencyKey },
            confirm: true,
            ...onBehalfOf(input.payee, input.amountCents),
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { gatewayRef: intent.id };
    },
    async lookupPayment(by) {
      if ('gatewayRef' in by) {
        return intentOutcome(
          await call(() => stripe.paymentIntents.retrieve(by.gatewayRef, { expand: ['latest_charge'] })),
        );
      }
      // Keys are ours (remit_<call>_<hex>): nothing to quote in Stripe's search query.
      if (!/^[\w]+$/.test(by.idempotencyKey)) throw new Error(`not a processor key: ${by.idempotencyKey}`);
      const found = await call(() =>
        stripe.paymentIntents.search({
          query: `metadata['remit_key']:'${by.idempotencyKey}'`,
          limit: 1,
          expand: ['data.latest_charge'],
        }),
      );
      const intent = found.data[0];
      return intent ? intentOutcome(intent) : { state: 'absent' };
    },
    async tokenizeCard(): Promise<CardToken> {
      // Cards are kept through a SetupIntent the add-card page confirms (pay-page/stripe-setup.ts).
      return refuseCardNumber();
    },
  };
}
