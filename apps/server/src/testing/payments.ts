import { sql } from 'drizzle-orm';
import type { TestServer } from './harness.js';
import type { TestMerchant } from './fixtures.js';

/** Helpers for money-movement tests: customers, charges, and reads of stored rows and events. */

const DAY_MS = 86_400_000;

/**
 * Real time moved to 12:00 UTC of today: far from the default settlement cutoff (00:00 UTC),
 * so a charge made during a test is never settled by the clock turning midnight.
 */
export function noonClock(): () => Date {
  const start = Date.now();
  const noon = Math.floor(start / DAY_MS) * DAY_MS + DAY_MS / 2;
  return () => new Date(noon + (Date.now() - start));
}

export const TEST_CARD = {
  number: '4242424242424242',
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
  zip: '94105',
};
export const bankAccount = (account_number = '000123456789') => ({
  routing_number: '011000015',
  account_number,
  account_type: 'checking',
  holder_name: 'Ada Lovelace',
});

/** A customer with a card (default) or a bank account. */
export async function newCustomer(
  s: TestServer,
  m: TestMerchant,
  method: { card?: object; bank_account?: object } = { card: TEST_CARD },
): Promise<number> {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Ada', last_name: 'Lovelace', ...method },
  });
  if (res.status !== 200) throw new Error(`customers/add failed: ${res.status} ${res.text}`);
  return res.body.data.customer_id;
}

/** Charges a customer through `POST /customers/charge/{id}`; returns the transaction id. */
export async function charge(
  s: TestServer,
  m: TestMerchant,
  customerId: number,
  amount: string,
  opts: { preAuth?: boolean; order_id?: string } = {},
): Promise<string> {
  const res = await s.http({
    method: 'POST',
    path: `/api/v1/customers/charge/${customerId}`,
    auth: m.auth,
    json: {
      merchant_key: m.merchant_key,
      amount,
      order_id: opts.order_id ?? `ord-${Math.random().toString(36).slice(2)}`,
      preAuth: opts.preAuth ?? false,
    },
  });
  if (res.status !== 200) throw new Error(`charge failed: ${res.status} ${res.text}`);
  return res.body.transaction_id;
}

export async function rows<T = Record<string, any>>(s: TestServer, query: ReturnType<typeof sql>): Promise<T[]> {
  const r = (await s.core.ctx.db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

/** `POST /api/v1{path}` as the merchant (its `merchant_key` added to the body), with an `Idempotency-Key` if given. */
export function merchantPost(s: TestServer, m: TestMerchant, path: string, body: object, key?: string) {
  return s.http({
    method: 'POST',
    path: `/api/v1${path}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key, ...body },
    headers: key ? { 'idempotency-key': key } : undefined,
  });
}

/** The processor's reference of a stored transaction. */
export async function gatewayRefOf(s: TestServer, id: string): Promise<string> {
  return (await rows<{ gateway_ref: string }>(s, sql`select gateway_ref from transactions where id = ${id}`))[0]!
    .gateway_ref;
}

/** The stored transaction row, money as numbers of cents. */
export async function txnRow(s: TestServer, id: string) {
  const [r] = await rows(
    s,
    sql`select id, type, is_status, status, amount_cents::int as amount, fee_cents::int as fee, net_cents::int as net,
        refunded_cents::int as refunded, authorized_cents::int as authorized, settled, linked_txn_id, payment_method
        from transactions where id = ${id}`,
  );
  if (!r) throw new Error(`no transaction ${id}`);
  return r;
}

/** Records linked to an original (voids, refunds, returns), oldest first. */
export async function linkedRows(s: TestServer, originalId: string) {
  return rows(
    s,
    sql`select id, type, is_status, amount_cents::int as amount, net_cents::int as net, linked_txn_id
        from transactions where linked_txn_id = ${originalId} order by created_at, id`,
  );
}

/** Payloads of a merchant's events of one type, oldest first. */
export async function eventsOf(s: TestServer, merchantId: string, type: string): Promise<any[]> {
  const r = await rows<{ payload: any }>(
    s,
    sql`select payload from events where merchant_id = ${merchantId} and event_type = ${type} order by created_at, id`,
  );
  return r.map((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload));
}
