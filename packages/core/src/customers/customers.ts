import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { perHandle } from '../db/prepared-sql.js';
import { customers, paymentMethods } from '../db/schema.js';
import { invalid, notFound } from '../errors.js';
import type { Merchant } from '../merchants/merchant-key.js';
import type { AddCustomerInput, Customer, ListCustomersInput } from '@remit/contract';
import {
  checkCard,
  methodsOf,
  refuseBankNumbers,
  refuseCardNumbers,
  methodSummary,
  storeBankAccount,
  storeCard,
  type PaymentMethodRow,
} from './vault.js';

export type CustomerRow = typeof customers.$inferSelect;

export const RAW_PAYMENT_DATA_MESSAGE =
  'Card and bank account details are accepted by the API only in sandbox. Add the customer without them, ' +
  'then call POST /customers/request-card/{customerId}: the customer enters the card on the hosted add-card page.';

/**
 * `POST /customers/add`: the customer and, in sandbox, a card and/or bank account in one
 * transaction. With both, the card is the default (it is stored first).
 */
export async function addCustomer(ctx: Ctx, merchant: Merchant, input: AddCustomerInput) {
  if (input.card) refuseCardNumbers(ctx);
  if (input.bank_account) refuseBankNumbers(ctx);
  if ((input.card || input.bank_account) && ctx.env !== 'sandbox') {
    throw invalid('raw_payment_data_not_allowed', RAW_PAYMENT_DATA_MESSAGE);
  }
  const now = merchantNow(ctx.now, merchant);
  const brand = input.card ? checkCard(ctx, input.card, now) : null;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(customers)
      .values({
        merchantId: merchant.id,
        firstName: input.first_name,
        lastName: input.last_name ?? null,
        email: input.email ?? null,
        phoneNumber: input.phone_number ?? null,
        createdAt: now,
      })
      .returning();
    const owner = { merchantId: merchant.id, customerId: row!.id, now };
    if (input.card) await storeCard(tx, ctx, owner, input.card, brand!);
    if (input.bank_account) {
      const defaultHolder = [input.first_name, input.last_name].filter(Boolean).join(' ');
      await storeBankAccount(tx, ctx, { ...owner, defaultHolder }, input.bank_account);
    }
    return { customer_id: row!.id, customer_email: row!.email ?? '', customer_phone: row!.phoneNumber ?? '' };
  });
}

/** A customerId path parameter as a row id; 0 (which names no customer) when it is not a positive integer. */
function customerRowId(customerId: string | number): number {
  const text = String(customerId).trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : 0;
}

/**
 * The merchant's customer named by a path parameter. Unknown ids, other merchants' customers and
 * ids that are not positive integers all answer the same 404.
 */
export async function findCustomer(
  db: Queryable,
  merchantId: string,
  customerId: string | number,
): Promise<CustomerRow> {
  const id = customerRowId(customerId);
  const [row] =
    id > 0
      ? await db
          .select()
          .from(customers)
          .where(and(eq(customers.id, id), eq(customers.merchantId, merchantId)))
          .limit(1)
      : [];
  if (!row) throw notFound('customer_not_found');
  return row;
}

/**
 * The customer a charge names (404 as `findCustomer`) and the method it uses: the default one
 * (else the oldest, should the flag ever be missing), null when there is none. One statement.
 */
export async function customerToCharge(
  db: Queryable,
  merchantId: string,
  customerId: string | number,
): Promise<{ customerId: number; method: PaymentMethodRow | null }> {
  const id = customerRowId(customerId);
  const [row] = id > 0 ? await toChargeStatement(db).execute({ id, merchantId }) : [];
  if (!row) throw notFound('customer_not_found');
  return row;
}

/** `customerToCharge`'s read, prepared by name once per database handle (Drizzle built it on every charge). */
const toChargeStatement = perHandle((db: Queryable) =>
  db
    .select({ customerId: customers.id, method: paymentMethods })
    .from(customers)
    .leftJoin(paymentMethods, eq(paymentMethods.customerId, customers.id))
    .where(and(eq(customers.id, sql.placeholder('id')), eq(customers.merchantId, sql.placeholder('merchantId'))))
    .orderBy(desc(paymentMethods.isDefault), asc(paymentMethods.createdAt), asc(paymentMethods.id))
    .limit(1)
    .prepare('remit_customer_to_charge'),
);

/** A customer as lists show it: payment methods summarized, never a number. */
export function customerView(c: CustomerRow, methods: PaymentMethodRow[]): Customer {
  return {
    customer_id: c.id,
    first_name: c.firstName,
    last_name: c.lastName ?? '',
    email: c.email ?? '',
    phone_number: c.phoneNumber ?? '',
    created_date: c.createdAt.toISOString(),
    payment_methods: methods.filter((m) => m.customerId === c.id).map(methodSummary),
  };
}
export type CustomerView = Customer;

/** `GET /customers`: newest first, `page` zero-based. */
export async function listCustomers(ctx: Ctx, merchant: Merchant, input: ListCustomersInput) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(customers)
      .where(eq(customers.merchantId, merchant.id))
      .orderBy(desc(customers.id))
      .limit(input.perPage)
      .offset(input.page * input.perPage),
    ctx.db.select({ n: count() }).from(customers).where(eq(customers.merchantId, merchant.id)),
  ]);
  const methods = await methodsOf(
    ctx.db,
    merchant.id,
    rows.map((r) => r.id),
  );
  const totalCount = Number(total?.n ?? 0);
  return {
    allList: rows.map((r) => customerView(r, methods)),
    page: input.page,
    perPage: input.perPage,
    totalCount,
    totalPage: Math.ceil(totalCount / input.perPage),
  };
}

/** `GET /customers/{customerId}`. */
export async function getCustomer(ctx: Ctx, merchant: Merchant, customerId: string) {
  return customerOfMerchant(ctx.db, merchant, customerId);
}

async function customerOfMerchant(db: Queryable, merchant: Merchant, customerId: string) {
  const customer = await findCustomer(db, merchant.id, customerId);
  return customerView(customer, await methodsOf(db, merchant.id, [customer.id]));
}
