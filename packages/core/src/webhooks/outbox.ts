import { sql, type SQL } from 'drizzle-orm';
import { events } from '../db/schema.js';
import { newId } from '../ids.js';
import { outboxWritten, type Writer } from '../operation.js';
import type { Vault } from '../encryption.js';
import type { EventType, EventData } from '@remit/contract';

/**
 * Fields a receiver must get in clear but the outbox must not keep in clear: they are stored
 * sealed (`{"$sealed": "<ciphertext>"}`) and opened by the dispatcher just before signing.
 */
const SEALED_FIELDS: Partial<Record<EventType, readonly string[]>> = {
  'merchant.onboarding': ['merchant_key'],
};

/**
 * Writes an event to the outbox. Call it with the scope of the transaction that makes the change
 * (`w.db`), so the event exists exactly when the change does. Event types with secret fields need the vault.
 */
export async function recordEvent<T extends EventType>(
  w: Writer,
  e: { clientId: string; merchantId?: string | null; type: T; data: EventData[T] },
  vault?: Vault,
): Promise<string> {
  const id = newId.event();
  await w.db.insert(events).values({
    id,
    clientId: e.clientId,
    merchantId: e.merchantId ?? null,
    eventType: e.type,
    payload: sealPayload(e.type, e.data as unknown as Record<string, unknown>, vault),
  });
  outboxWritten(w, 'webhooks');
  return id;
}

/**
 * `recordEvent` folded into the statement of the change itself: `writes` (inserts, updates whose
 * results the caller already knows) run as data-modifying CTEs of the event's insert, so the change
 * and its outbox row are one statement, one round trip, atomic even outside a transaction.
 */
export async function writeWithEvent<T extends EventType>(
  w: Writer,
  writes: ReadonlyArray<{ getSQL(): SQL }>,
  e: { clientId: string; merchantId?: string | null; type: T; data: EventData[T] },
  vault?: Vault,
): Promise<string> {
  const id = newId.event();
  const insert = w.db.insert(events).values({
    id,
    clientId: e.clientId,
    merchantId: e.merchantId ?? null,
    eventType: e.type,
    payload: sealPayload(e.type, e.data as unknown as Record<string, unknown>, vault),
  });
  const ctes = writes.map((w, i) => sql`${sql.raw(`w${i}`)} as (${w.getSQL()})`);
  await w.db.execute(ctes.length ? sql`with ${sql.join(ctes, sql`, `)} ${insert.getSQL()}` : insert.getSQL());
  outboxWritten(w, 'webhooks');
  return id;
}

/**
 * The outbox row of a change whose payload holds values only the statement knows (the original
 * row's `order_createdfrom`, an order id it may hold): inserted from `source`, a CTE of the change,
 * one event per row it returns (none, no event), `fromRow` adding those fields to `data` as SQL
 * over the source's columns. The caller folds it into the change's statement and, once a row came
 * back, calls `outboxWritten`. Event types with sealed fields cannot go this way.
 */
export function eventInsertFrom<T extends EventType, K extends keyof EventData[T] & string>(
  source: SQL,
  e: { clientId: string; merchantId: string; type: T; data: Omit<EventData[T], K> },
  fromRow: Record<K, SQL>,
): SQL {
  if (SEALED_FIELDS[e.type]) throw new Error(`${e.type} carries secret fields: write it with recordEvent`);
  return eventInsertSql(
    source,
    { id: newId.event(), clientId: e.clientId, merchantId: e.merchantId, type: e.type, data: JSON.stringify(e.data) },
    fromRow,
  );
}

/**
 * `eventInsertFrom`'s statement with its values given: plain values, or `sql.placeholder`s of a
 * statement prepared once (`data`: the payload as JSON text; the type must carry no sealed field).
 */
export function eventInsertSql(
  source: SQL,
  v: { id: unknown; clientId: unknown; merchantId: unknown; type: unknown; data: unknown },
  fromRow: Record<string, SQL>,
): SQL {
  const fields = Object.entries<SQL>(fromRow).map(([k, f]) => sql`${k}::text, ${f}`);
  return sql`insert into events (id, client_id, merchant_id, event_type, payload)
    select ${v.id}::text, ${v.clientId}::text, ${v.merchantId}::text, ${v.type}::text,
      ${v.data}::jsonb || jsonb_build_object(${sql.join(fields, sql`, `)})
    from ${source}`;
}

/** Whether events of `type` carry fields stored sealed (they cannot go through `eventInsertSql`). */
export const hasSealedFields = (type: EventType) => Boolean(SEALED_FIELDS[type]);

function sealPayload(type: EventType, data: Record<string, unknown>, vault?: Vault): Record<string, unknown> {
  const fields = SEALED_FIELDS[type];
  if (!fields) return data;
  if (!vault) throw new Error(`${type} carries secret fields: pass the vault to recordEvent`);
  const out = { ...data };
  for (const f of fields) if (typeof out[f] === 'string') out[f] = { $sealed: vault.encrypt(out[f]) };
  return out;
}

/** The payload as the receiver gets it: sealed fields opened. */
export function openPayload(payload: unknown, vault: Vault): unknown {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(payload)) {
    const sealed = v && typeof v === 'object' && '$sealed' in v ? (v as { $sealed: unknown }).$sealed : undefined;
    out[k] = typeof sealed === 'string' ? vault.decrypt(sealed) : v;
  }
  return out;
}
