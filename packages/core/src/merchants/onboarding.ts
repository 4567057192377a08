import { z } from 'zod';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { recordEvent } from '../events/outbox.js';
import * as fields from '../fields.js';
import { newId } from '../ids.js';
import { digest, newKey } from '../secret-keys.js';
import {
  accountNumber,
  birthDate,
  countryCode,
  ein,
  hundredths,
  mccCode,
  moneyText,
  pastDate,
  percent,
  postalCode,
  routingNumber,
  ssn,
  US_ZIP,
  websiteUrl,
} from './onboarding-fields.js';

export const OWNERSHIP_TYPES = [
  'sole_proprietorship',
  'partnership',
  'llc',
  'corporation',
  's_corporation',
  'non_profit',
  'government',
] as const;

export const PRODUCTS_SOLD = ['physical_goods', 'digital_goods', 'services', 'subscriptions', 'donations'] as const;

export const PROCESSING_ENVIRONMENTS = ['ecommerce', 'retail', 'moto', 'mobile', 'restaurant', 'recurring'] as const;

/** Default pricing of a new merchant (DESIGN.md): card 2.9% + 0.30, ACH 1.0% capped at 10.00. */
export const DEFAULT_PRICING = {
  cardFeeRateE7: 29_000_000,
  cardFeeFixedCents: 30,
  achFeeRateE7: 10_000_000,
  achFeeCapCents: 1_000,
  maxAmountCents: fields.MAX_AMOUNT_CENTS,
} as const;

const t = (max: number, what: string) => fields.text(max).describe(what);

const bankingInfo = z
  .object({
    account_number: accountNumber(),
    bank_name: t(100, 'Name of the bank holding the settlement account'),
    routing_number: routingNumber(),
  })
  .describe('Settlement bank account. The account number is encrypted at rest and never returned.');

const businessInfo = z
  .object({
    business_address: t(200, 'Street address of the business'),
    business_city: t(100, 'City'),
    business_country: countryCode(),
    business_email: fields.email().describe('Business email address; shown as the merchant `email`'),
    business_industry: mccCode(),
    business_name: t(200, 'Legal business name; shown as the merchant `businessname`'),
    business_phone: fields.phone().describe('Business phone: 10-digit US number or E.164; stored as E.164'),
    business_state: t(100, 'State (or region) name, for example "California"'),
    business_zip: postalCode(),
    dba: fields.optionalText(200).describe('Optional: "doing business as" name'),
    ein: ein(),
    established_date: pastDate(),
    ownershiptype: z.enum(OWNERSHIP_TYPES).describe(`Legal form of the business: one of ${OWNERSHIP_TYPES.join(', ')}`),
    website: websiteUrl(),
  })
  .superRefine((b, ctx) => {
    if (b.business_country === 'US' && !US_ZIP.test(b.business_zip)) {
      ctx.addIssue({ code: 'custom', path: ['business_zip'], message: 'must be a US ZIP code NNNNN or NNNNN-NNNN' });
    }
  })
  .describe('The business. The EIN is encrypted at rest and never returned.');

const ownerInfo = z
  .object({
    address: t(200, 'Home street address of the owner'),
    b_dl_number: fields.optionalText(50).describe("Optional: owner's driver's license number"),
    b_title: t(100, 'Title of the owner in the business, for example "CEO"'),
    city: t(100, 'City'),
    country: countryCode(),
    date_of_birth: birthDate(),
    email: fields.email().describe('Email of the owner'),
    first_name: t(100, 'First name of the owner'),
    last_name: t(100, 'Last name of the owner'),
    ownership_percent: percent(),
    phone: fields.phone().describe('Owner phone: 10-digit US number or E.164; stored as E.164'),
    ssn: ssn(),
    state: t(100, 'State (or region) name'),
    zip: postalCode(),
  })
  .superRefine((o, ctx) => {
    if (o.country === 'US' && !US_ZIP.test(o.zip)) {
      ctx.addIssue({ code: 'custom', path: ['zip'], message: 'must be a US ZIP code NNNNN or NNNNN-NNNN' });
    }
  })
  .describe('The principal owner. The SSN is encrypted at rest and never returned.');

const processingInfo = z
  .object({
    annualCCSales: moneyText(),
    avgTicket: moneyText({ positive: true }),
    legal_b2b: percent(),
    legal_b2c: percent(),
    legal_cnpinternet: percent(),
    legal_cnpphoneemail: percent(),
    legal_cp: percent(),
    legal_percentdeliveredover30days: percent(),
    legal_percentdeliveredsameday: percent(),
    legal_productssold: z
      .enum(PRODUCTS_SOLD)
      .describe(`What the business mainly sells: one of ${PRODUCTS_SOLD.join(', ')}`),
    percentdelievered7days: percent(),
    percentdelivered14days: percent(),
    processing_environment: z
      .enum(PROCESSING_ENVIRONMENTS)
      .describe(`Where payments are mainly taken: one of ${PROCESSING_ENVIRONMENTS.join(', ')}`),
  })
  .superRefine((p, ctx) => {
    if (hundredths(p.legal_b2b) + hundredths(p.legal_b2c) !== 10_000) {
      ctx.addIssue({ code: 'custom', path: ['legal_b2b'], message: 'legal_b2b and legal_b2c must add up to 100' });
    }
    if (hundredths(p.legal_cp) + hundredths(p.legal_cnpinternet) + hundredths(p.legal_cnpphoneemail) !== 10_000) {
      ctx.addIssue({
        code: 'custom',
        path: ['legal_cp'],
        message: 'legal_cp, legal_cnpinternet and legal_cnpphoneemail must add up to 100',
      });
    }
  })
  .describe(
    'How the business takes payments. legal_b2b + legal_b2c = 100; legal_cp (card present) + legal_cnpinternet + legal_cnpphoneemail = 100. Delivery percentages are each 0–100.',
  );

/** `POST /onboarding` body: four required objects; every inner field is required except `dba` and `b_dl_number`. */
export const onboardingSchema = z
  .object({
    BankingInfo: bankingInfo,
    BusinessInfo: businessInfo,
    OwnerInfo: ownerInfo,
    ProcessingInfo: processingInfo,
  })
  .describe('Merchant onboarding submission. All leaf fields are strings.');

export type OnboardingInput = z.output<typeof onboardingSchema>;

export interface OnboardingResult {
  businessname: string;
  email: string;
  merchant_key: string;
  public_key: string;
  merchant_id: string;
}

/**
 * Creates a `pending` merchant for the client from a parsed submission and emits
 * `merchant.onboarding` in the same transaction. SSN, EIN and the account number are kept only
 * encrypted; the merchant_key only as digest + ciphertext.
 */
export async function onboardMerchant(ctx: Ctx, clientId: string, input: OnboardingInput): Promise<OnboardingResult> {
  const { BankingInfo: bank, BusinessInfo: business, OwnerInfo: owner, ProcessingInfo: processing } = input;
  const { ein: einPlain, ...businessRest } = business;
  const { ssn: ssnPlain, ...ownerRest } = owner;
  const id = newId.merchant();
  const merchantKey = newKey.merchant(ctx.env);
  const publicKey = newKey.public(ctx.env);

  await ctx.db.transaction(async (tx) => {
    await tx.insert(merchants).values({
      id,
      clientId,
      status: 'pending',
      businessname: business.business_name,
      email: business.business_email,
      firstName: owner.first_name,
      lastName: owner.last_name,
      phonenumber: business.business_phone,
      website: business.website,
      merchantKeyHash: digest(merchantKey),
      merchantKeyEnc: ctx.vault.encrypt(merchantKey),
      publicKey,
      businessInfo: businessRest,
      ownerInfo: ownerRest,
      processingInfo: processing,
      bankName: bank.bank_name,
      routingNumber: bank.routing_number,
      accountNumberEnc: ctx.vault.encrypt(bank.account_number),
      accountLast4: bank.account_number.slice(-4),
      einEnc: ctx.vault.encrypt(einPlain),
      ssnEnc: ctx.vault.encrypt(ssnPlain),
      ...DEFAULT_PRICING,
      joinDate: ctx.now(),
    });
    await recordEvent(tx, {
      clientId,
      merchantId: id,
      type: 'merchant.onboarding',
      data: {
        merchant_key: merchantKey,
        merchant_id: id,
        business_name: business.business_name,
        email: business.business_email,
        public_key: publicKey,
      },
    }, ctx.vault);
  });

  return {
    businessname: business.business_name,
    email: business.business_email,
    merchant_key: merchantKey,
    public_key: publicKey,
    merchant_id: id,
  };
}
