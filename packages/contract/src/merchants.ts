import * as z from 'zod';
import * as fields from './fields.js';
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
  websiteUrl,
} from './onboarding-fields.js';
import { usZipValid } from './card-rules.js';
import { envelope } from './envelope.js';
import { verificationSchema } from './verification.js';

/** Merchants: `POST /onboarding`, `GET /merchant`, `GET /merchant/{merchant_id}`, `POST /approve-merchant`. */

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
    business_name: fields
      .shownText(200)
      .describe(
        'Legal business name; shown as the merchant `businessname`. No invisible or direction-changing characters',
      ),
    business_phone: fields.phone().describe('Business phone: 10-digit US number or E.164; stored as E.164'),
    business_state: t(100, 'State (or region) name, for example "California"'),
    business_zip: postalCode(),
    dba: fields
      .optionalShownText(200)
      .describe('Optional: "doing business as" name. No invisible or direction-changing characters'),
    ein: ein(),
    established_date: pastDate(),
    ownershiptype: z.enum(OWNERSHIP_TYPES).describe(`Legal form of the business: one of ${OWNERSHIP_TYPES.join(', ')}`),
    website: websiteUrl(),
  })
  .superRefine((b, ctx) => {
    if (b.business_country === 'US' && !usZipValid(b.business_zip)) {
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
    if (o.country === 'US' && !usZipValid(o.zip)) {
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

export type OnboardingRequest = z.input<typeof onboardingSchema>;
export type OnboardingInput = z.output<typeof onboardingSchema>;

export const onboardingResultSchema = z.object({
  businessname: z.string(),
  email: z.string(),
  merchant_key: z.string().describe('Secret merchant API key; also readable at GET /merchant/{merchant_id}'),
  public_key: z.string().describe('Merchant public key for widgets'),
  agreement_link: z
    .string()
    .describe(
      "The merchant agreement page, where the merchant's owner accepts it (fires documents.signed); also emailed to the owner",
    ),
});
export type OnboardingResult = z.infer<typeof onboardingResultSchema>;
export const onboardingResponseSchema = envelope(onboardingResultSchema);

export const MERCHANT_STATUSES = ['pending', 'approved', 'suspended'] as const;

export const merchantSchema = z.object({
  businessname: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  join_date: z.string().describe('ISO 8601 UTC with milliseconds'),
  merchant_id: z.string().describe('`m_` merchant GUID (not the API key)'),
  phonenumber: z.string(),
  public_data: z.object({ public_key: z.string() }),
  website: z.string(),
  status: z
    .enum(MERCHANT_STATUSES)
    .describe(
      '`pending` after onboarding, `approved` after approval, `suspended` while the operator has suspended it (payments refused)',
    ),
  verification: verificationSchema,
});
export type MerchantView = z.infer<typeof merchantSchema>;
export const merchantListResponseSchema = envelope(z.array(merchantSchema));

/** The owner call `GET /merchant/{merchant_id}` also returns the merchant_key. */
export const merchantWithKeySchema = merchantSchema.extend({ merchant_key: z.string() });
export type MerchantWithKey = z.infer<typeof merchantWithKeySchema>;
export const merchantResponseSchema = envelope(merchantWithKeySchema);

export const merchantIdParams = z.object({ merchant_id: z.string().min(1).max(100) });

/** `POST /approve-merchant` (sandbox only); answers the `status` envelope. */
export const approveMerchantBody = z.object({ merchant_id: z.string().trim().min(1, 'is required').max(100) });
export type ApproveMerchantRequest = z.input<typeof approveMerchantBody>;
