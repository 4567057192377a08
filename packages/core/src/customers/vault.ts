import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { customers, paymentMethods } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { newId } from '../ids.js';
import { cardBrand, EXPIRY_PAST, EXPIRY_TOO_FAR, expiryProblem, luhnValid, MAX_EXPIRY_YEARS } from '@remit/contract';
import type { CardInput as ProcessorCard, CardToken } from '../processor/connector.js';
import { processorKey } from '../processor/keys.js';
import type { BankAccountInput, PaymentMethodSummary, StoredCardInput as CardInput } from '@remit/contract';

/**
 * Stored cards and bank accounts. Full numbers are kept only encrypted (`number_enc`); last four
 * digits, brand and expiry stay readable for lists. The CVC is checked by the caller's schema and
 * never stored.
 */
export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/**
 * A processor whose own fields take card numbers (Stripe): Remit refuses any it is sent, before
 * reading it, on every route that could take one.
 */
export function refuseCardNumbers(ctx: Pick<Ctx, 'processor'>): void {
  if (ctx.processor.cardEntry) throw new RemitError('card_entry_by_processor');
}

/** The same for bank account numbers: Stripe's Payment Element takes and verifies the account. */
export function refuseBankNumbers(ctx: Pick<Ctx, 'processor'>): void {
  if (ctx.processor.cardEntry) throw new RemitError('bank_entry_by_processor');
}

/** Checks a card against the processor (Luhn, sandbox test cards) and the merchant's clock; returns its brand. */
export function checkCard(ctx: Pick<Ctx, 'processor'>, card: CardInput, now: Date): string {
  if (!luhnValid(card.number)) {
    const message = 'Card number is not valid (Luhn check failed).';
    throw invalid('invalid_card_number', message, [{ path: 'card.number', message }]);
  }
  const refusal = ctx.processor.checkCardNumber(card.number);
  if (refusal) throw invalid('card_not_accepted', refusal, [{ path: 'card.number', message: refusal }]);
  const brand = cardBrand(card.number);
  if (!brand) {
    const message = 'Card brand not supported; Visa, Mastercard, Amex and Discover are accepted.';
    throw invalid('card_not_accepted', message, [{ path: 'card.number', message }]);
  }
  // The pay page's rule too (`expiryProblem`): months in UTC, good through the month's last day.
  const expiry = expiryProblem(card.exp_month, card.exp_year, now);
  if (expiry === EXPIRY_PAST) {
    const message = 'Card has expired: exp_month/exp_year is in the past.';
    throw invalid('card_expired', message, [{ path: 'card.exp_year', message }]);
  }
  if (expiry === EXPIRY_TOO_FAR) {
    const message = `exp_year must be at most ${now.getUTCFullYear() + MAX_EXPIRY_YEARS}.`;
    throw invalid('invalid_card_expiry', message, [{ path: 'card.exp_year', message }]);
  }
  return brand;
}

interface Owner {
  merchantId: string;
  customerId: number;
  now: Date;
}

/** What `number_enc` holds, encrypted, when the processor keeps the card: its token after this prefix. */
const TOKEN_PREFIX = 'token:';

/**
 * Stores a checked card for a customer; the first method a customer gets becomes the default. A
 * processor that keeps cards tokenizes it, and only its token is stored (encrypted) with the last
 * four; the simulator keeps none, so in sandbox the number is stored encrypted.
 */
export async function storeCard(
  tx: Queryable,
  ctx: Pick<Ctx, 'vault' | 'processor' | 'op'>,
  owner: Owner,
  card: CardInput,
  brand: string,
) {
  const id = newId.paymentMethod();
  const token = await ctx.processor.tokenizeCard(
    { number: card.number, expMonth: card.exp_month, expYear: card.exp_year, cvc: card.cvc || undefined },
    { idempotencyKey: processorKey(ctx.op.key, 'tokenize', id) },
  );
  return insertMethod(tx, owner, {
    id,
    type: 'card',
    brand,
    last4: card.number.slice(-4),
    expMonth: card.exp_month,
    expYear: card.exp_year,
    numberEnc: ctx.vault.encrypt(token ? TOKEN_PREFIX + token.token : card.number),
  });
}

/** Stores a card the processor keeps (a SetupIntent's or a PaymentIntent's PaymentMethod): its token only. */
export async function storeProcessorCard(
  tx: Queryable,
  ctx: Pick<Ctx, 'vault'>,
  owner: Owner,
  card: { token: string; brand: string; last4: string; expMonth: number | null; expYear: number | null },
) {
  return insertMethod(tx, owner, {
    type: 'card',
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    numberEnc: ctx.vault.encrypt(TOKEN_PREFIX + card.token),
  });
}

/** Stores a bank account the processor keeps (a SetupIntent's us_bank_account PaymentMethod): its token, last four and bank name. */
export async function storeProcessorBankAccount(
  tx: Queryable,
  ctx: Pick<Ctx, 'vault'>,
  owner: Owner,
  bank: { token: string; last4: string; bankName: string; accountType: string | null; holderName: string | null },
) {
  return insertMethod(tx, owner, {
    type: 'bank_account',
    // The bank's name stands where a card shows its brand.
    brand: bank.bankName || null,
    last4: bank.last4,
    numberEnc: ctx.vault.encrypt(TOKEN_PREFIX + bank.token),
    routingNumber: null,
    accountType: bank.accountType,
    holderName: bank.holderName,
  });
}

/** Stores a bank account (routing number checked by the schema) for ACH debits. */
export async function storeBankAccount(
  tx: Queryable,
  ctx: Pick<Ctx, 'vault'>,
  owner: Owner & { defaultHolder: string },
  bank: BankAccountInput,
) {
  return insertMethod(tx, owner, {
    type: 'bank_account',
    brand: null,
    last4: bank.account_number.slice(-4),
    numberEnc: ctx.vault.encrypt(bank.account_number),
    // Routing numbers identify a bank publicly; only the account number is secret.
    routingNumber: bank.routing_number,
    accountType: bank.account_type,
    holderName: bank.holder_name || owner.defaultHolder,
  });
}

async function insertMethod(
  tx: Queryable,
  owner: Owner,
  values: Omit<typeof paymentMethods.$inferInsert, 'id' | 'customerId' | 'merchantId' | 'isDefault' | 'createdAt'> & {
    id?: string;
  },
): Promise<PaymentMethodRow> {
  // The customer row lock serializes concurrent adds, so exactly one method becomes the default.
  await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, owner.customerId)).for('update');
  const [existing] = await tx
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(eq(paymentMethods.customerId, owner.customerId))
    .limit(1);
  const [row] = await tx
    .insert(paymentMethods)
    .values({
      ...values,
      id: values.id ?? newId.paymentMethod(),
      customerId: owner.customerId,
      merchantId: owner.merchantId,
      isDefault: !existing,
      createdAt: owner.now,
    })
    .returning();
  return row!;
}

/** Every method of a set of customers, default first. */
export async function methodsOf(db: Queryable, merchantId: string, customerIds: number[]): Promise<PaymentMethodRow[]> {
  if (customerIds.length === 0) return [];
  return db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.merchantId, merchantId), inArray(paymentMethods.customerId, customerIds)))
    .orderBy(desc(paymentMethods.isDefault), asc(paymentMethods.createdAt), asc(paymentMethods.id));
}

/** The card as the processor needs it (its token, or the number); decrypted only for the call. */
export function revealCard(ctx: Pick<Ctx, 'vault'>, row: PaymentMethodRow): ProcessorCard | CardToken {
  const kept = ctx.vault.decrypt(row.numberEnc);
  if (kept.startsWith(TOKEN_PREFIX)) return { token: kept.slice(TOKEN_PREFIX.length) };
  return { number: kept, expMonth: row.expMonth ?? 0, expYear: row.expYear ?? 0 };
}

export function revealAccountNumber(ctx: Pick<Ctx, 'vault'>, row: PaymentMethodRow): string {
  return ctx.vault.decrypt(row.numberEnc);
}

/** A stored bank account as the processor debits it: its token (Stripe), or the numbers (the simulator). */
export function revealBankAccount(
  ctx: Pick<Ctx, 'vault'>,
  row: PaymentMethodRow,
): { token: string } | { routingNumber: string; accountNumber: string } {
  const kept = ctx.vault.decrypt(row.numberEnc);
  if (kept.startsWith(TOKEN_PREFIX)) return { token: kept.slice(TOKEN_PREFIX.length) };
  return { routingNumber: row.routingNumber ?? '', accountNumber: kept };
}

/** What lists and responses may show of a method: never the number. */
export function methodSummary(row: PaymentMethodRow): PaymentMethodSummary {
  return {
    type: row.type as PaymentMethodSummary['type'],
    brand: row.brand ?? '',
    last_four: row.last4,
    exp_month: row.expMonth ?? null,
    exp_year: row.expYear ?? null,
    account_type: row.accountType ?? null,
    is_default: row.isDefault,
  };
}
