import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/** The emulator's wire: Stripe's objects (typed against the `stripe` package), its form bodies, errors and test numbers. */

export type Params = Record<string, unknown>;

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

export type PaymentIntent = Pick<
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
  | 'client_secret'
  | 'setup_future_usage'
  | 'allowed_payment_method_types'
> & {
  latest_charge: string | null;
  on_behalf_of: string | null;
  transfer_data: { destination: string; amount: number | null } | null;
};
export type Charge = Pick<
  Stripe.Charge,
  | 'id'
  | 'object'
  | 'amount'
  | 'amount_captured'
  | 'amount_refunded'
  | 'authorization_code'
  | 'captured'
  | 'currency'
  | 'paid'
  | 'refunded'
  | 'status'
  | 'created'
  | 'livemode'
  | 'metadata'
  | 'failure_code'
  | 'failure_message'
> & {
  payment_intent: string;
  payment_method_details: {
    type: string;
    card?: { brand: string; last4: string; exp_month: number; exp_year: number };
  } | null;
};
export type PaymentMethod = Pick<
  Stripe.PaymentMethod,
  'id' | 'object' | 'type' | 'customer' | 'created' | 'livemode' | 'metadata'
> & {
  card: Pick<
    Stripe.PaymentMethod.Card,
    'brand' | 'last4' | 'exp_month' | 'exp_year' | 'fingerprint' | 'funding' | 'country'
  > | null;
  us_bank_account: Pick<
    Stripe.PaymentMethod.UsBankAccount,
    'last4' | 'routing_number' | 'account_type' | 'account_holder_type' | 'bank_name' | 'financial_connections_account'
  > | null;
};
export type SetupIntent = Pick<
  Stripe.SetupIntent,
  | 'id'
  | 'object'
  | 'client_secret'
  | 'customer'
  | 'payment_method'
  | 'payment_method_types'
  | 'allowed_payment_method_types'
  | 'status'
  | 'usage'
  | 'metadata'
  | 'created'
  | 'livemode'
  | 'last_setup_error'
  | 'next_action'
  | 'cancellation_reason'
  | 'description'
>;
/** Either intent, as the confirmation code treats them alike. */
export type AnyIntent = PaymentIntent | SetupIntent;
export type Refund = Pick<
  Stripe.Refund,
  'id' | 'object' | 'amount' | 'currency' | 'status' | 'created' | 'metadata'
> & {
  payment_intent: string;
  charge: string;
  /** What the request asked of a destination charge (Stripe keeps them on the transfer reversal and fee refund). */
  reverse_transfer: boolean;
  refund_application_fee: boolean;
};
/** An Account Link as Stripe answers it, with what it was asked for (kept by the emulator). */
export type AccountLink = Stripe.AccountLink & {
  account: string;
  type: string;
  refresh_url: string;
  return_url: string;
  collection_options: { fields?: string; future_requirements?: string } | null;
};
export type PaymentMethodDomain = Pick<
  Stripe.PaymentMethodDomain,
  'id' | 'object' | 'domain_name' | 'enabled' | 'created' | 'livemode' | 'apple_pay' | 'google_pay' | 'link' | 'paypal'
>;
export type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'livemode' | 'metadata' | 'email' | 'name'>;
export type Account = Pick<
  Stripe.Account,
  | 'id'
  | 'object'
  | 'charges_enabled'
  | 'payouts_enabled'
  | 'details_submitted'
  | 'type'
  | 'metadata'
  | 'email'
  | 'country'
  | 'business_type'
  | 'created'
> & {
  business_profile: Pick<Stripe.Account.BusinessProfile, 'name' | 'mcc' | 'url' | 'support_phone' | 'support_email'>;
  company:
    | (Pick<Stripe.Account.Company, 'name' | 'phone' | 'tax_id_provided' | 'owners_provided' | 'structure'> & {
        address: Stripe.Address;
      })
    | null;
  individual: { first_name: string; last_name: string; id_number_provided: boolean } | null;
  capabilities: Record<string, 'active' | 'inactive' | 'pending'>;
  tos_acceptance: Pick<Stripe.Account.TosAcceptance, 'date' | 'ip' | 'user_agent'>;
  requirements: Stripe.Account.Requirements;
  future_requirements: Stripe.Account.FutureRequirements;
  external_accounts: {
    object: 'list';
    data: Array<
      Pick<
        Stripe.BankAccount,
        | 'id'
        | 'object'
        | 'last4'
        | 'routing_number'
        | 'country'
        | 'currency'
        | 'account_holder_name'
        | 'account_holder_type'
      >
    >;
  };
};
export type Person = Pick<
  Stripe.Person,
  'id' | 'object' | 'account' | 'first_name' | 'last_name' | 'email' | 'phone' | 'id_number_provided' | 'created'
> & {
  dob: { day: number; month: number; year: number };
  relationship: Pick<
    Stripe.Person.Relationship,
    'representative' | 'owner' | 'executive' | 'title' | 'percent_ownership'
  >;
};
export type Dispute = Pick<
  Stripe.Dispute,
  | 'id'
  | 'object'
  | 'amount'
  | 'currency'
  | 'reason'
  | 'status'
  | 'created'
  | 'livemode'
  | 'metadata'
  | 'is_charge_refundable'
> & {
  charge: string;
  payment_intent: string;
  evidence_details: Pick<Stripe.Dispute.EvidenceDetails, 'due_by' | 'has_evidence' | 'past_due' | 'submission_count'>;
};

export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {
    super(String(error.message));
  }
}

export const DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': {
    code: 'incorrect_cvc',
    decline_code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
};
/** Stripe's 4000000000000341: saving it for a customer succeeds, every charge of it is declined. */
export const DECLINES_ON_CHARGE: Record<string, { code: string; decline_code?: string; message: string }> = {
  '4000000000000341': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
};
export const THREE_DS = new Set(['4000000000003220', '4000002500003155']);
/** Microdeposit verification: Stripe's test descriptor code and amounts. */
export const MICRODEPOSIT_CODE = 'SM11AA';
export const MICRODEPOSIT_AMOUNTS = ['32', '45'];
export const RAW_CARD_MESSAGE =
  'Sending credit card numbers directly to the Stripe API is generally unsafe. To continue processing use Stripe.js, the Stripe mobile bindings, or Stripe Elements. For more information, see https://dashboard.stripe.com/account/integration/settings. If you are qualified to handle card data directly, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.';
export const PUBLISHABLE_MESSAGE =
  'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.';

export const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
export const now = () => Math.floor(Date.now() / 1000);
export const secretFor = (intentId: string) =>
  `${intentId}_secret_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
export const PM_TYPES = ['card', 'us_bank_account'];
