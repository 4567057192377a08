import { sql, type SQL } from 'drizzle-orm';
import type { EventData } from '@remit/contract';
import { coalesce, col, compileFields, lit, money, type Compiled, type Expr, type TxnRow } from './row-expr.js';

/**
 * Event payloads made from a transaction row, each field once as a rule over the row: TypeScript
 * builds the payload from a row it holds (`payloadOf`), a statement from the row it writes
 * (`payloadSql`, the fields of `eventInsertSql`), and both are the same list.
 */

type Fields<T> = { readonly [K in keyof T]-?: Expr<T[K]> };

const orderId = coalesce(col.textOrNull('orderId'), lit.text(''));
const charged = {
  transaction_id: col.text('id'),
  merchant_id: col.text('merchantId'),
  amount: money(col.cents('amountCents')),
  net_amount: money(col.cents('netCents')),
  fee_amount: money(col.cents('feeCents')),
  order_id: orderId,
};

/** `payment.success` of a completed payment (a sale, a capture, an ACH approval). */
export const PAYMENT_SUCCESS: Fields<EventData['payment.success']> = {
  ...charged,
  last_four: col.text('lastFour'),
  brand: col.text('cardBrand'),
  link_id: coalesce(col.textOrNull('payLinkId'), lit.text('')),
};

/** `preauth.charge` of a captured preauthorization. */
export const PREAUTH_CHARGE: Fields<EventData['preauth.charge']> = charged;

/** The fields of a void's event (`payment.void`, `preauth.void`) that come from the original: `take`, what the void takes back. */
type VoidFields = Fields<Pick<EventData['payment.void'], 'order_createdfrom' | 'amount'>>;
const voidFields = new WeakMap<Expr<number>, VoidFields>();
/** (One list per `take`, so `payloadOf` compiles it once.) */
export const voidFromOriginal = (take: Expr<number>): VoidFields => {
  let fields = voidFields.get(take);
  if (!fields)
    voidFields.set(take, (fields = { order_createdfrom: col.text('orderCreatedfrom'), amount: money(take) }));
  return fields;
};

const compiledPayloads = new WeakMap<object, Compiled<unknown>>();

/** The payload `fields` make of `row` (the fields compiled once per list). */
export function payloadOf<T>(fields: Fields<T>, row: TxnRow, v: Record<string, unknown> = {}): T {
  let make = compiledPayloads.get(fields) as Compiled<T> | undefined;
  if (!make) compiledPayloads.set(fields, (make = compileFields(fields)));
  return make(row, v);
}

/** The same fields as SQL over the row aliased `alias` in a statement (`eventInsertSql`'s `fromRow`). */
export function payloadSql<T>(fields: Fields<T>, alias: string): Record<string, SQL> {
  const out: Record<string, SQL> = {};
  for (const k in fields) out[k] = fields[k].sql(alias);
  return out;
}

/** `payment.success` of a completed payment row. */
const paymentSuccess = compileFields(PAYMENT_SUCCESS);
const NO_VALUES = {};
export const paymentSuccessData = (row: TxnRow) => paymentSuccess(row, NO_VALUES);

/** The empty JSON object a statement's payload starts from when every field comes from the row. */
export const NO_GIVEN_FIELDS = sql`'{}'`;
