/**
 * The card network and ACH provider sit behind this interface: the whole money lifecycle. The
 * sandbox simulator and the Stripe connector implement it; the core calls it from every money
 * operation (docs/processors.md).
 */
import { RemitError } from '../errors.js';
import type { AccountVerification } from '../db/schema.js';
import type { DeferredCall } from './deferred.js';
import type { WalletDomain } from './wallet-domains.js';

export type { CardBrand } from '@remit/contract';

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  /** Checked by the network, never stored. */
  cvc?: string;
}

/** A card the processor keeps: its token stands for the number, which we never store. */
export interface CardToken {
  token: string;
}

/**
 * `redirectUrl`: the processor's own 3-D Secure challenge (Stripe's `next_action`): nothing is
 * held yet; the customer goes there and comes back to the `returnUrl` the authorization named.
 */
export type Decline = { approved: false; code: string; message: string; gatewayRef: string; redirectUrl?: string };

export type AuthorizeResult = { approved: true; authCode: string; gatewayRef: string } | Decline;

export interface BankDebitInput {
  routingNumber: string;
  accountNumber: string;
  /** A bank account the processor keeps (Stripe's `cus_…/pm_…`): debited off-session, no numbers sent. */
  token?: string;
  amountCents: number;
  /** The account holder, as the mandate names them. */
  holderName?: string;
  accountType?: string;
  mandate?: MandateAcceptance;
}

/** What the customer accepted on the pay page, and from where. */
export interface MandateAcceptance {
  acceptedAt: Date;
  ip: string;
  userAgent: string;
}

/**
 * What the processor says about one payment, asked after the fact (a 3-D Secure return, an
 * unknown outcome, a webhook that never came). `absent`: it has no payment by that key.
 */
export type PaymentLookup =
  | { state: 'approved'; gatewayRef: string; authCode: string }
  | { state: 'declined'; gatewayRef: string; code: string; message: string }
  | { state: 'pending'; gatewayRef: string }
  | { state: 'absent' };

/**
 * A call whose outcome is unknown (a timeout, the processor's 5xx): it may or may not have moved
 * money. Unhandled it answers 502 `processor_error` like any failure; a caller that can record
 * the payment as `processing` catches it, and reconciliation asks the processor later.
 */
export class OutcomeUnknown extends RemitError {
  constructor(cause: unknown) {
    super('processor_error', undefined, { cause });
    this.name = 'OutcomeUnknown';
  }
}

/**
 * A call none of whose tries reached the processor (the connection refused, the host unknown): it
 * did nothing, so it is not deferred. In a request: 502 `processor_error`, nothing recorded; a call
 * reconciliation sends again waits for its next pass.
 */
export class ProcessorUnreachable extends RemitError {
  constructor(cause: unknown) {
    super('processor_error', undefined, { cause });
    this.name = 'ProcessorUnreachable';
  }
}

/**
 * Every call that creates or moves money carries `idempotencyKey`: the same key on a retry of the
 * same operation (processor/keys.ts), so a processor that already did it answers what it did.
 */
export interface Keyed {
  idempotencyKey: string;
}

/**
 * A capture, cancel or refund inside a money operation: `deferTo` is the operation's list of calls
 * deferred to its commit (`ctx.op.deferred`); given one, a call whose answer never came is kept
 * there (processor/deferred.ts) instead of failing.
 */
export interface Deferrable {
  deferTo?: DeferredCall[] | null;
  /**
   * Our record the call is for (a refund or void record; a capture: the preauthorization), kept with
   * a deferred call so a refusal found later changes that record (payments/refused-calls.ts).
   */
  reference?: string;
}

/**
 * Whom a payment is for, when the processor pays merchants out itself (Stripe connected accounts):
 * the merchant's account there and our fee, kept back as the platform's application fee, so the
 * merchant receives exactly `net_amount`. Absent: the platform takes the payment (the simulator).
 */
export interface Payee {
  account: string;
  applicationFeeCents: number;
}

/** A merchant's account at the processor, made from the onboarding submission. */
export interface MerchantAccountInput {
  merchantId: string;
  email: string;
  business: Record<string, string>;
  owner: Record<string, string>;
  bank: { routingNumber: string; accountNumber: string; bankName: string };
  ein: string;
  ssn: string;
}

/** The merchant's acceptance of the agreement, as the processor records it. */
export interface TermsAcceptance {
  at: Date;
  ip: string;
  userAgent: string;
}

/**
 * Processors that keep merchants as accounts of their own (Stripe Connect Custom accounts): the
 * account is made at onboarding, approval follows the processor's review, and the merchant's
 * acceptance of the agreement is passed on.
 */
export interface MerchantAccounts {
  create(input: MerchantAccountInput, opts: Keyed): Promise<{ account: string }>;
  /** An update that moves no money: repeating it is harmless, so it needs no idempotency key. */
  acceptTerms(account: string, acceptance: TermsAcceptance): Promise<void>;
  /** The account as the processor holds it now (never an event's copy): charges, payouts and what it still needs. */
  verification(account: string): Promise<AccountVerification>;
  /** A single-use address at the processor where the merchant gives what is asked for (Stripe's Account Link). */
  link(account: string, request: AccountLinkRequest): Promise<{ url: string; expiresAt: Date }>;
}

export interface AccountLinkRequest {
  /** `onboarding`: collect what is due; `update`: review and edit what was given. */
  type: 'onboarding' | 'update';
  /** Where a used or expired link sends the merchant (to mint a new one). */
  refreshUrl: string;
  /** Where the merchant lands afterwards, whatever they did. */
  returnUrl: string;
  /** Collect what is due now, or also what will be due eventually. */
  fields: 'currently_due' | 'eventually_due';
  /** Also collect what new rules will ask for (`future_requirements`). */
  includeUpcoming: boolean;
}

export interface Processor {
  /** As REMIT_PROCESSOR names it: `simulator`, `stripe`, or `none` (production without a connector). */
  readonly name: string;
  /**
   * Capture, cancel, refund and increment only record what the database already says and can
   * never fail (the simulator): the core then needs no transaction around the write to undo it.
   * A remote processor is called while the write's transaction holds the row lock, and its
   * failure rolls the write back.
   */
  readonly bookkeepingOnly: boolean;
  /**
   * Authorize an amount on a card (`capture`: and capture it at once). A card that needs 3-D
   * Secure declines with code `authentication_required` until `authenticated` says the customer
   * completed the challenge.
   */
  authorizeCard(
    card: CardInput | CardToken,
    amountCents: number,
    opts: Keyed & {
      capture: boolean;
      now: Date;
      authenticated?: boolean;
      /** Ask for 3-D Secure whatever the card (a `require_3ds` link). */
      requireAuthentication?: boolean;
      /** Where the processor's own challenge page sends the customer back (the pay page). */
      returnUrl?: string;
      payee?: Payee;
    },
  ): Promise<AuthorizeResult>;
  /**
   * Capture up to the authorized amount of an authorization; the rest is released.
   * `applicationFeeCents`: the fee of the captured amount, for a payment made with a payee.
   */
  capture(
    input: Keyed & Deferrable & { gatewayRef: string; amountCents: number; applicationFeeCents?: number | null },
  ): Promise<void>;
  /** Release an authorization that was never captured. */
  cancel(input: Keyed & Deferrable & { gatewayRef: string }): Promise<void>;
  /**
   * Give back part or all of a captured payment (repeatable up to what was captured). `reference`
   * is our refund or void record, which the processor keeps with its refund. `returnFee`: a void
   * gives the merchant our fee back (a refund does not); with a payee the processor returns it.
   */
  refund(
    input: Keyed & Deferrable & { gatewayRef: string; amountCents: number; reference: string; returnFee?: boolean },
  ): Promise<void>;
  /** Raise an open authorization to `amountCents` in all; a decline leaves it as it was. */
  incrementAuthorization(
    input: Keyed & { gatewayRef: string; amountCents: number },
  ): Promise<{ approved: true } | Decline>;
  /** Start an ACH debit; it stays pending until the bank approves or returns it. `mandate`: the customer's acceptance online (the pay page); without it the merchant holds the authorization. */
  startAchDebit(input: Keyed & BankDebitInput & { payee?: Payee }): Promise<{ gatewayRef: string }>;
  /**
   * Keep a card for later charges: the processor's token, or null when the processor keeps no
   * cards (the simulator: the number is stored encrypted, in sandbox only).
   */
  tokenizeCard(card: CardInput, opts: Keyed): Promise<CardToken | null>;
  /**
   * Ask the processor about a payment, by its reference or by the idempotency key it was created
   * with. Absent for a processor whose answers are never unknown (the simulator).
   */
  lookupPayment?(by: { gatewayRef: string } | { idempotencyKey: string }): Promise<PaymentLookup>;
  /** Checks a card number before it is used or stored; null when acceptable, else the reason. */
  checkCardNumber(number: string): string | null;
  /**
   * Present when card numbers are entered in the processor's own fields (Stripe's Payment Element,
   * loaded from `jsUrl` with `publishableKey`): Remit then refuses every card number it is sent.
   */
  readonly cardEntry?: { publishableKey: string; jsUrl: string };
  /** Present when merchants are accounts at the processor (Stripe); the simulator has none. */
  readonly accounts?: MerchantAccounts;
  /**
   * Present when wallets (Apple Pay, Google Pay) show in the processor's fields only on registered
   * domains (Stripe's payment method domains): registers `domain` once (processor/wallet-domains.ts).
   */
  registerWalletDomain?(domain: string): Promise<WalletDomain>;
}
