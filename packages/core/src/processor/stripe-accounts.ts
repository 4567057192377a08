import type Stripe from 'stripe';
import type { AccountVerification } from '../db/schema.js';
import type { MerchantAccountInput, MerchantAccounts } from './connector.js';

/**
 * Merchants as Stripe Connect Custom accounts: the platform collects everything (the spec's
 * one-submission onboarding) and hands it to Stripe, which reviews the account and says when it
 * may take charges (`account.updated`, `charges_enabled`). Payments are destination charges on
 * the merchant's behalf (stripe.ts).
 */

/** 'YYYY-MM-DD' as Stripe's `dob`. */
function dateParts(iso: string) {
  const [year, month, day] = iso.split('-').map(Number);
  return { year: year!, month: month!, day: day! };
}

/** Our legal forms as Stripe's company structure (a sole proprietor is an individual there). */
const STRUCTURES: Record<string, Stripe.AccountCreateParams.Company.Structure | undefined> = {
  partnership: 'general_partnership',
  llc: 'multi_member_llc',
  corporation: 'private_corporation',
  s_corporation: 'private_corporation',
  non_profit: 'incorporated_non_profit',
  government: 'government_instrumentality',
};

/** The owner as Stripe knows a person: the account's `individual`, or the company's representative. */
function ownerPerson(input: MerchantAccountInput): Stripe.AccountCreateParams.Individual {
  const o = input.owner;
  return {
    first_name: o.first_name,
    last_name: o.last_name,
    email: o.email,
    phone: o.phone,
    dob: dateParts(o.date_of_birth!),
    id_number: input.ssn,
    address: { line1: o.address, city: o.city, state: o.state, postal_code: o.zip, country: o.country },
  };
}

/** Stripe's account parameters from the onboarding submission. */
export function accountParams(input: MerchantAccountInput): Stripe.AccountCreateParams {
  const b = input.business;
  const country = b.business_country || 'US';
  const person = ownerPerson(input);
  const soleProprietor = b.ownershiptype === 'sole_proprietorship';
  return {
    type: 'custom',
    country,
    email: input.email,
    business_type: soleProprietor
      ? 'individual'
      : b.ownershiptype === 'non_profit'
        ? 'non_profit'
        : b.ownershiptype === 'government'
          ? 'government_entity'
          : 'company',
    capabilities: {
      card_payments: { requested: true },
      transfers: { requested: true },
      us_bank_account_ach_payments: { requested: true },
    },
    business_profile: {
      name: b.dba || b.business_name,
      mcc: b.business_industry,
      url: b.website,
      support_phone: b.business_phone,
      support_email: input.email,
    },
    ...(soleProprietor
      ? { individual: person }
      : {
          company: {
            name: b.business_name,
            tax_id: input.ein,
            phone: b.business_phone,
            structure: STRUCTURES[b.ownershiptype ?? ''],
            address: {
              line1: b.business_address,
              city: b.business_city,
              state: b.business_state,
              postal_code: b.business_zip,
              country,
            },
            owners_provided: true,
            directors_provided: true,
            executives_provided: true,
          },
        }),
    // Payouts go to the bank account of the submission.
    external_account: {
      object: 'bank_account',
      country,
      currency: 'usd',
      routing_number: input.bank.routingNumber,
      account_number: input.bank.accountNumber,
      account_holder_name: b.business_name,
      account_holder_type: soleProprietor ? 'individual' : 'company',
    },
    metadata: { remit_merchant_id: input.merchantId },
  };
}

/** The owner as the company's representative and owner (a sole proprietor is the account's `individual`). */
export function representativeParams(input: MerchantAccountInput): Stripe.AccountCreatePersonParams {
  const o = input.owner;
  return {
    ...ownerPerson(input),
    relationship: {
      representative: true,
      owner: true,
      executive: true,
      title: o.b_title,
      percent_ownership: Number(o.ownership_percent),
    },
  };
}

export function stripeAccounts(stripe: Stripe, call: <T>(run: () => Promise<T>) => Promise<T>): MerchantAccounts {
  return {
    async create(input, { idempotencyKey }) {
      const params = accountParams(input);
      const account = await call(() => stripe.accounts.create(params, { idempotencyKey }));
      if (params.business_type !== 'individual') {
        await call(() =>
          stripe.accounts.createPerson(account.id, representativeParams(input), {
            idempotencyKey: `${idempotencyKey}_rep`,
          }),
        );
      }
      return { account: account.id };
    },
    async acceptTerms(account, { at, ip, userAgent }) {
      await call(() =>
        stripe.accounts.update(account, {
          tos_acceptance: { date: Math.floor(at.getTime() / 1000), ip, user_agent: userAgent },
        }),
      );
    },
    async verification(account) {
      return verificationOf(await call(() => stripe.accounts.retrieve(account)));
    },
    async link(account, r) {
      const link = await call(() =>
        stripe.accountLinks.create({
          account,
          type: r.type === 'onboarding' ? 'account_onboarding' : 'account_update',
          refresh_url: r.refreshUrl,
          return_url: r.returnUrl,
          collection_options: { fields: r.fields, future_requirements: r.includeUpcoming ? 'include' : 'omit' },
        }),
      );
      return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
    },
  };
}

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);

/** Stripe's account as Remit keeps it: names, codes and reasons as Stripe gives them (open sets), lists sorted. */
export function verificationOf(a: Stripe.Account): AccountVerification {
  const r = a.requirements;
  const f = a.future_requirements;
  const list = (v: string[] | null | undefined) => [...(v ?? [])].sort();
  return {
    charges_enabled: a.charges_enabled,
    payouts_enabled: a.payouts_enabled,
    currently_due: list(r?.currently_due),
    eventually_due: list(r?.eventually_due),
    past_due: list(r?.past_due),
    pending_verification: list(r?.pending_verification),
    errors: (r?.errors ?? [])
      .map((e) => ({ requirement: e.requirement, code: e.code, reason: e.reason }))
      .sort((x, y) => (x.requirement + x.code).localeCompare(y.requirement + y.code)),
    deadline: iso(r?.current_deadline),
    disabled_reason: r?.disabled_reason ?? null,
    upcoming: { eventually_due: list(f?.eventually_due), deadline: iso(f?.current_deadline) },
  };
}
