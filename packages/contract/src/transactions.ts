import * as z from 'zod';
import { dateText, merchantKey } from './fields.js';
import { envelope } from './envelope.js';

/** Transactions: `GET /merchant/transactions` and `GET /merchant/transactions/{transaction_id}`. */

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** Deep enough for any real listing; keeps OFFSET arithmetic far from overflow. */
export const MAX_PAGE_NUMBER = 1_000_000;

const LIMIT_RULE = `must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`;
const PAGE_RULE = `must be a whole number from 0 (the first page) to ${MAX_PAGE_NUMBER}`;

/** A whole number given as a JSON number or as text (query strings carry only text). */
export const wholeNumber = (min: number, max: number, rule: string) =>
  z.union([z.number(), z.string().max(20)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^[+-]?\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    }
    return n;
  });

/** Absent, null and "" all mean "not given" (a query string writes an empty value as ""). */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional());

/**
 * Parameters of the list, read from the JSON body or the query string. Dates are inclusive
 * calendar days in UTC; `pageNumber` is zero-based. `starting_after` (our extension) pages by key:
 * the page after the named transaction, whatever its depth, at the cost of a first page.
 */
export const listTransactionsInput = z
  .object({
    merchant_key: merchantKey().describe("The merchant's secret key"),
    from_date: optional(dateText()).describe('YYYY-MM-DD: first day included (UTC)'),
    to_date: optional(dateText()).describe('YYYY-MM-DD: last day included (UTC); not before from_date'),
    limit: optional(wholeNumber(1, MAX_LIMIT, LIMIT_RULE)).describe(
      `Page size, 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}; number or text`,
    ),
    pageNumber: optional(wholeNumber(0, MAX_PAGE_NUMBER, PAGE_RULE)).describe('Zero-based page; number or text'),
    starting_after: optional(z.string().max(100, 'must be a transaction_id (at most 100 characters)')).describe(
      "Remit's extension (keyset paging, as Stripe's): a transaction_id of this merchant; the page holds the transactions listed after it. Not with pageNumber",
    ),
  })
  .superRefine((v, ctx) => {
    if (v.starting_after !== undefined && v.pageNumber !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['starting_after'],
        message: 'cannot be combined with pageNumber: give one or the other',
      });
    }
    if (v.from_date && v.to_date && v.from_date > v.to_date) {
      ctx.addIssue({ code: 'custom', path: ['from_date'], message: 'must be on or before to_date' });
    }
  });
export type ListTransactionsInput = z.output<typeof listTransactionsInput>;
export type ListTransactionsRequest = z.input<typeof listTransactionsInput>;

export const getTransactionInput = z.object({ merchant_key: merchantKey().describe("The merchant's secret key") });
export type GetTransactionInput = z.output<typeof getTransactionInput>;

/** The fields beyond the spec's added to both shapes (docs/api.md "Decisions where the spec is silent"). */
const extras = {
  status: z.string(),
  /** 0 pending, 1 authorized, 2 completed, 3 declined, 4 voided, 5 fully refunded, 6 returned, 7 processing, 8 failed (refused by the processor after Remit answered). */
  is_status: z.number().int(),
  /** Sale, PreAuth, Void, Refund, Return. */
  type: z.string(),
  payment_method: z.string(),
  settled: z.boolean(),
  order_id: z.string().describe("'' when none"),
};
export type TransactionExtras = z.infer<z.ZodObject<typeof extras>>;

export const transactionListItemSchema = z.object({
  transaction_id: z.string(),
  amount: z.string(),
  created_date: z.string(),
  fee_percentage: z.string(),
  net_amount: z.number(),
  other_details: z.object({ auth_code: z.string(), card_brand: z.string(), last_four: z.string() }),
  ...extras,
});
export type TransactionListItem = z.infer<typeof transactionListItemSchema>;

export const transactionDetailSchema = z.object({
  transaction_id: z.string(),
  amount: z.string(),
  transaction_date: z.string(),
  fee_percentage: z.string(),
  net_amount: z.number(),
  other_details: z.object({ authcode: z.string(), cardType: z.string(), lastFourDigits: z.string() }),
  ...extras,
});
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

/** The list answers `total` (every match, not just this page) beside `data`. */
export const transactionListResponseSchema = z.object({
  result: z.literal(true),
  message: z.string(),
  data: z.array(transactionListItemSchema),
  total: z.number().int(),
});
export type TransactionList = z.infer<typeof transactionListResponseSchema>;

/** `data` is an array holding the one transaction, as the spec shows. */
export const transactionResponseSchema = envelope(z.array(transactionDetailSchema));

export const transactionIdParams = z.object({ transaction_id: z.string().min(1).max(200) });
