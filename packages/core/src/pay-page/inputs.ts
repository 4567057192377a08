import { z } from 'zod';
import type { BankInput, CardInput } from '@remit/contract';
import { bankAccountInput, cardInput } from '../customers/schemas.js';
import { invalid, type FieldError } from '../errors.js';
import { text } from '../fields.js';

/**
 * The pay page's card and bank fields, checked for shape (digits, lengths, ABA checksum) before
 * any link is touched. The checks that need the processor or the merchant's clock (test cards,
 * Luhn, expiry) follow with `checkCard` once the link is known.
 */

const payCard = cardInput.extend({
  name: text(100),
  zip: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{3,10}$/, 'must be a postal code of 3 to 10 letters or digits'),
});
export type PayCard = z.output<typeof payCard>;

const payBank = bankAccountInput.extend({ holder_name: text(100) });
export type PayBank = z.output<typeof payBank>;

function parse<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors: FieldError[] = r.error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw invalid('invalid_request', `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
}

export const parsePayCard = (card: CardInput): PayCard => parse(payCard, card, 'card');
export const parsePayBank = (bank: BankInput): PayBank => parse(payBank, bank, 'bank');
