import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/connect.js';
import { transactions } from '../db/schema.js';
import type { Vault } from '../encryption.js';

/**
 * How an idempotent answer is stored (docs/api.md, Conventions: Idempotency). An answer that names a
 * transaction record keeps a reference to it instead of the record's own values: the record's id,
 * date, order id and original's id are cut out of the body and put back from the record on replay
 * (those never change once written). What is left is deflated against a dictionary of the answers'
 * field names and sealed with the vault. Replays are byte-identical: an answer is stored this way
 * only when putting it back gives the same bytes, else it is sealed whole as before.
 *
 * Forms of `response_body`: `v2.…` or `v1.…` (the whole body sealed, as before), `a1:<record id>:v2.…` (the
 * deflated body sealed, with the record's values cut out when a record id is given).
 */

/** Never change what a stored answer was deflated with: add a new form (a2) instead. */
const DICTIONARY = Buffer.from(
  [
    '{"result":false,"code":"","message":"","errors":[{"path":"","message":""}]}',
    '"order_id":"","link_id":"","payment_link":"http://127.0.0.1/pay/","sales_id":"txn_',
    '{"Status":"Approved","Account":"","Brand":"Visa","AuthCode":"","Authorized":"","amount":"","orderid":"","net_amount":',
    '"sales_id":"txn_","order_createdfrom":"API","amount":,"txn_id":"","txn_date":"","linked_txn_id":"txn_","Status":"Success","type":"Refund"}}',
    '"transaction_id":"txn_","amount":".00","status":"completed","is_status":2,"type":"Sale","payment_method":"card","auth_code":"","card_brand":"Visa",',
    '"last_four":"4242","fee_amount":0.,"fee_percentage":"2.9000000","net_amount":,"order_id":"","customer_id":,"created_date":"2026-',
    '{"result":true,"message":"Payment approved.","transaction_id":"txn_","data":{"transaction_id":"txn_',
  ].join(''),
);

/** The record's values cut out, in this order, each as its JSON string; a marker holds its place. */
type RecordValues = Array<string | null>;
const MARK = '\u0001';
const marker = (i: number) => `"${MARK}${i}"`;

/** The record an answer names: its `transaction_id`, else its `sales_id` (a pay link's sale). */
const RECORD_ID = /"(?:transaction_id|sales_id)":"(txn_[A-Za-z0-9_]{1,64})"/;

async function recordValues(db: Queryable, id: string): Promise<RecordValues | null> {
  const [row] = await db
    .select({
      id: transactions.id,
      createdAt: transactions.createdAt,
      orderId: transactions.orderId,
      linked: transactions.linkedTxnId,
      status: transactions.status,
    })
    .from(transactions)
    .where(eq(transactions.id, id))
    .limit(1);
  // A pending sale may be removed (an expired widget link's): its answer is kept whole.
  if (!row || row.status === 'pending') return null;
  return [row.id, (row.createdAt as Date).toISOString(), row.orderId, row.linked];
}

/** The body with each record value (as a whole JSON string) replaced by its marker. */
function cutOut(body: string, values: RecordValues): string {
  return values.reduce<string>((b, v, i) => (v ? b.split(JSON.stringify(v)).join(marker(i)) : b), body);
}
function putBack(cut: string, values: RecordValues): string {
  return values.reduce<string>((b, v, i) => (v ? b.split(marker(i)).join(JSON.stringify(v)) : b), cut);
}

/** The stored form of an answer; `db` sees the record it answers (the held transaction). */
export async function storeAnswer(db: Queryable, vault: Vault, body: string): Promise<string> {
  // A raw control character never appears in JSON text (JSON escapes it), so markers are unambiguous.
  if (body.includes(MARK)) return vault.encrypt(body);
  const id = RECORD_ID.exec(body)?.[1];
  const values = id ? await recordValues(db, id) : null;
  const cut = values ? cutOut(body, values) : body;
  if (values && putBack(cut, values) !== body) return vault.encrypt(body);
  const packed = deflateRawSync(Buffer.from(cut, 'utf8'), { dictionary: DICTIONARY, level: 9 });
  return `a1:${values ? id : ''}:${vault.encryptBytes(packed)}`;
}

/** The answer a stored form holds, byte for byte; null when the record it refers to is gone. */
export async function readAnswer(db: Queryable, vault: Vault, stored: string): Promise<string | null> {
  if (!stored.startsWith('a1:')) return vault.decrypt(stored);
  const end = stored.indexOf(':', 3);
  const id = stored.slice(3, end);
  const cut = inflateRawSync(vault.decryptBytes(stored.slice(end + 1)), { dictionary: DICTIONARY }).toString('utf8');
  if (!id) return cut;
  const values = await recordValues(db, id);
  return values ? putBack(cut, values) : null;
}
