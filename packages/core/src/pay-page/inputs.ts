import type * as z from 'zod';
import {
  payBankInput,
  payCardInput,
  type BankInput,
  type CardInput,
  type PayBank,
  type PayCard,
} from '@remit/contract';
import { invalid, type FieldError } from '../errors.js';

/**
 * The pay page's card and bank fields, checked for shape (digits, lengths, ABA checksum) before
 * any link is touched. The checks that need the processor or the merchant's clock (test cards,
 * Luhn, expiry) follow with `checkCard` once the link is known.
 */

function parse<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors: FieldError[] = r.error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].join('.'),
    message: i.message,
  }));
  throw invalid(
    'invalid_request',
    `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}

export type { PayBank, PayCard };

export const parsePayCard = (card: CardInput): PayCard => parse(payCardInput, card, 'card');
export const parsePayBank = (bank: BankInput): PayBank => parse(payBankInput, bank, 'bank');
