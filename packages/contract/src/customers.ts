import * as z from 'zod';
import { abaRoutingValid, accountNumberValid, cardLayout, cvcValid, postalCodeValid } from './card-rules.js';
import {
  amount,
  email,
  flag,
  intLike,
  locale,
  merchantKey,
  optionalNonBlank,
  optionalShownText,
  optionalText,
  phone,
  shownText,
  text,
} from './fields.js';
import { envelope } from './envelope.js';

/**
 * Customers: `POST /customers/add`, `GET /customers`, `GET /customers/{customerId}`,
 * `POST /customers/request-card/{customerId}`, `POST /customers/charge/{customerId}`. Card and bank
 * fields are checked for shape here; the checks that need the processor or the merchant's clock
 * (test cards, expiry) are in core.
 */

const digitsOnly = (v: string) => v.replace(/[\s-]/g, '');

/** Optional fields: clients send `""` or `null` for "none" as often as they leave the field out. */
const absentIfBlank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** A card's billing postal code, as `postalCodeValid` (card-rules.ts) takes it: any country's. */
const POSTAL_CODE_RULE = 'must be a postal code of 3 to 10 letters, digits, spaces or dashes';
const billingZip = () =>
  z
    .string()
    .trim()
    .refine((v) => postalCodeValid(v), POSTAL_CODE_RULE);

const cardFields = z.object({
  number: z
    .string()
    .max(32)
    .transform(digitsOnly)
    .pipe(z.string().regex(/^\d{12,19}$/, 'must be 12 to 19 digits')),
  exp_month: intLike(1, 12),
  /** Two-digit years mean 20xx. */
  exp_year: intLike(0, 2200).transform((y) => (y < 100 ? 2000 + y : y)),
  cvc: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform(String)
    .pipe(z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits')),
  zip: z.union([z.string(), z.number().int().nonnegative()]).transform(String).pipe(billingZip()).optional(),
});

/** The CVC's length is the brand's (`cvcValid`): 4 digits on American Express, 3 on the others. */
function cvcOfBrand(card: { number: string; cvc: string }, ctx: z.RefinementCtx) {
  if (!cvcValid(card.cvc, card.number))
    ctx.addIssue({
      code: 'custom',
      path: ['cvc'],
      message: `must be ${cardLayout(card.number).cvcLength} digits for this card`,
    });
}

/** Raw card details; accepted by the API in sandbox only. The CVC is checked, never stored. */
export const cardInput = cardFields.superRefine(cvcOfBrand);
export type CardDetails = z.input<typeof cardInput>;
export type StoredCardInput = z.output<typeof cardInput>;

/** Raw bank account details; accepted by the API in sandbox only. */
export const bankAccountInput = z.object({
  routing_number: z
    .string()
    .transform(digitsOnly)
    .pipe(
      z.string().superRefine((v, ctx) => {
        if (!/^\d{9}$/.test(v)) ctx.addIssue({ code: 'custom', message: 'must be 9 digits' });
        else if (!abaRoutingValid(v))
          ctx.addIssue({ code: 'custom', message: 'is not a valid ABA routing number (checksum failed)' });
      }),
    ),
  account_number: z
    .string()
    .transform(digitsOnly)
    .pipe(z.string().refine(accountNumberValid, 'must be 4 to 17 digits')),
  account_type: z.enum(['checking', 'savings']).default('checking'),
  holder_name: optionalText(100),
});
export type BankAccountInput = z.output<typeof bankAccountInput>;
export type BankAccountDetails = z.input<typeof bankAccountInput>;

export const addCustomerInput = z.object({
  merchant_key: merchantKey(),
  first_name: shownText(100),
  last_name: absentIfBlank(optionalShownText(100)),
  email: absentIfBlank(email()),
  phone_number: absentIfBlank(phone()),
  card: absentIfBlank(cardInput),
  bank_account: absentIfBlank(bankAccountInput),
});
export type AddCustomerInput = z.output<typeof addCustomerInput>;
export type AddCustomerRequest = z.input<typeof addCustomerInput>;

export const CUSTOMERS_PER_PAGE = { default: 20, max: 100 } as const;

/** `GET /customers`: from the JSON body or the query string; `page` is zero-based. */
export const listCustomersInput = z.object({
  merchant_key: merchantKey(),
  page: intLike(0, 1_000_000).default(0),
  perPage: intLike(1, CUSTOMERS_PER_PAGE.max).default(CUSTOMERS_PER_PAGE.default),
});
export type ListCustomersInput = z.output<typeof listCustomersInput>;
export type ListCustomersRequest = z.input<typeof listCustomersInput>;

export const merchantKeyInput = z.object({ merchant_key: merchantKey() });
/** `POST /customers/request-card/{customerId}`: the merchant key, and (our extension) the customer's language for the SMS, email and add-card page. */
export const cardRequestInput = merchantKeyInput.extend({ locale: optionalNonBlank(locale()) });

/** Path of the per-customer endpoints; a value that cannot be an id answers 404 like an unknown one. */
export const customerPathParams = z.object({ customerId: z.string().max(40) });

export const addCustomerResultSchema = z.object({
  customer_id: z.number().int().positive(),
  customer_email: z.string().describe("'' when none"),
  customer_phone: z.string().describe("E.164; '' when none"),
});
export type AddCustomerResult = z.infer<typeof addCustomerResultSchema>;
export const addCustomerResponseSchema = envelope(addCustomerResultSchema);

/** A stored payment method as the API shows it: numbers are never returned. */
export const paymentMethodSummarySchema = z.object({
  type: z.enum(['card', 'bank_account']),
  brand: z.string().describe("card brand; '' for a bank account"),
  last_four: z.string(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
  account_type: z.string().nullable().describe('checking or savings; null for a card'),
  is_default: z.boolean().describe('the method charges use'),
});
export type PaymentMethodSummary = z.infer<typeof paymentMethodSummarySchema>;

export const customerSchema = z.object({
  customer_id: z.number().int().positive(),
  first_name: z.string(),
  last_name: z.string().describe("'' when none"),
  email: z.string().describe("'' when none"),
  phone_number: z.string().describe("E.164; '' when none"),
  created_date: z.string().describe('ISO 8601 UTC with milliseconds'),
  payment_methods: z.array(paymentMethodSummarySchema).describe('default first; numbers are never returned'),
});
export type Customer = z.infer<typeof customerSchema>;
export const customerResponseSchema = envelope(customerSchema);

export const customerListSchema = z.object({
  allList: z.array(customerSchema),
  page: z.number().int().describe('zero-based'),
  perPage: z.number().int(),
  totalCount: z.number().int(),
  totalPage: z.number().int(),
});
export type CustomerList = z.infer<typeof customerListSchema>;
export const customerListResponseSchema = envelope(customerListSchema);

/** `POST /customers/charge/{customerId}`. `amount` is a number in the spec; numeric text is accepted too. */
export const chargeInput = z.object({
  merchant_key: merchantKey(),
  amount: amount(),
  order_id: text(100),
  /** Listed as required in the spec; absent means false. */
  preAuth: flag().default(false),
});
export type ChargeInput = z.output<typeof chargeInput>;
export type ChargeRequest = z.input<typeof chargeInput>;

/** `data` of the charge response (the spec does not show it). */
export const chargeDataSchema = z
  .object({
    transaction_id: z.string(),
    amount: z.string().describe('decimal text, two places'),
    status: z
      .string()
      .describe(
        'completed, authorized (preAuth), pending (ACH), or processing (HTTP 202: the processor has not confirmed it yet)',
      ),
    is_status: z.number().int().describe('2 completed, 1 authorized (preAuth), 0 pending (ACH), 7 processing'),
    type: z.string().describe('Sale or PreAuth'),
    payment_method: z.string().describe('card or ach'),
    auth_code: z.string().describe("'' for ACH"),
    card_brand: z.string().describe('card brand, or ACH'),
    last_four: z.string(),
    fee_amount: z.number(),
    fee_percentage: z.string().describe('decimal text, seven places'),
    net_amount: z.number(),
    order_id: z.string(),
    customer_id: z.number().int(),
    created_date: z.string(),
  })
  .describe('The new transaction (the spec does not show this shape)');
export type ChargeData = z.infer<typeof chargeDataSchema>;

/** The charge answers `transaction_id` beside `data`. */
export const chargeResponseSchema = z.object({
  result: z.literal(true),
  message: z.string(),
  transaction_id: z.string(),
  data: chargeDataSchema,
});
export type ChargeResult = z.infer<typeof chargeResponseSchema>;

/**
 * The hosted pay page's card and bank fields as the server checks them for shape (digits, lengths,
 * ABA checksum) before any link is touched; the page's wire shapes are `pay-page.ts`'s.
 */
export const payCardInput = cardFields.extend({ name: text(100), zip: billingZip() }).superRefine(cvcOfBrand);
export type PayCard = z.output<typeof payCardInput>;

export const payBankInput = bankAccountInput.extend({ holder_name: text(100) });
export type PayBank = z.output<typeof payBankInput>;
