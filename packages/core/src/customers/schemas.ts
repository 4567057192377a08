import { z } from 'zod';
import { abaRoutingValid } from '../processor/cards.js';
import { email, intLike, merchantKey, optionalText, phone, text } from '../fields.js';

/**
 * Request schemas of the customer endpoints. Card and bank fields are checked for shape here;
 * the checks that need the processor or the merchant's clock (test cards, expiry) are in vault.ts.
 */

const digitsOnly = (v: string) => v.replace(/[\s-]/g, '');

/** Optional fields: clients send `""` or `null` for "none" as often as they leave the field out. */
const absentIfBlank = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/** Raw card details; accepted by the API in sandbox only. The CVC is checked, never stored. */
export const cardInput = z.object({
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
  zip: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform((v) => String(v).trim())
    .pipe(z.string().regex(/^[A-Za-z0-9 -]{3,10}$/, 'must be a postal code of 3 to 10 letters or digits'))
    .optional(),
});
export type CardInput = z.output<typeof cardInput>;

/** Raw bank account details; accepted by the API in sandbox only. */
export const bankAccountInput = z.object({
  routing_number: z
    .string()
    .transform(digitsOnly)
    .pipe(
      z.string().superRefine((v, ctx) => {
        if (!/^\d{9}$/.test(v)) ctx.addIssue({ code: 'custom', message: 'must be 9 digits' });
        else if (!abaRoutingValid(v)) ctx.addIssue({ code: 'custom', message: 'is not a valid ABA routing number (checksum failed)' });
      }),
    ),
  account_number: z
    .string()
    .transform(digitsOnly)
    .pipe(z.string().regex(/^\d{4,17}$/, 'must be 4 to 17 digits')),
  account_type: z.enum(['checking', 'savings']).default('checking'),
  holder_name: optionalText(100),
});
export type BankAccountInput = z.output<typeof bankAccountInput>;

export const addCustomerInput = z.object({
  merchant_key: merchantKey(),
  first_name: text(100),
  last_name: absentIfBlank(optionalText(100)),
  email: absentIfBlank(email()),
  phone_number: absentIfBlank(phone()),
  card: absentIfBlank(cardInput),
  bank_account: absentIfBlank(bankAccountInput),
});
export type AddCustomerInput = z.output<typeof addCustomerInput>;

export const CUSTOMERS_PER_PAGE = { default: 20, max: 100 } as const;

/** `GET /customers`: from the JSON body or the query string; `page` is zero-based. */
export const listCustomersInput = z.object({
  merchant_key: merchantKey(),
  page: intLike(0, 1_000_000).default(0),
  perPage: intLike(1, CUSTOMERS_PER_PAGE.max).default(CUSTOMERS_PER_PAGE.default),
});
export type ListCustomersInput = z.output<typeof listCustomersInput>;

export const merchantKeyInput = z.object({ merchant_key: merchantKey() });

/** Path of the per-customer endpoints; a value that cannot be an id answers 404 like an unknown one. */
export const customerPathParams = z.object({ customerId: z.string().max(40) });
