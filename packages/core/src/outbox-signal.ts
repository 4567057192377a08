import type { Db, Queryable } from './db/connect.js';
import { heldTransaction, outsideHeldTransaction } from './db/held-transaction.js';

/**
 * The in-process wake-up of the outbox dispatchers: an operation that writes an event or a
 * message says so, and once its transaction commits the dispatchers of this process hear it and
 * look at once instead of at their next poll. Other processes still find the rows by polling.
 */
export type OutboxKind = 'webhooks' | 'messages';
type Listener = (kind: OutboxKind) => void;

const listeners = new WeakMap<object, Set<Listener>>();
/** Open transactions (tracked by `signalCommits`) and the outboxes they wrote to. */
const pending = new WeakMap<object, Set<OutboxKind>>();

function fire(db: object, kind: OutboxKind) {
  const set = listeners.get(db);
  // A dispatcher woken from a request's async context must not run on that request's transaction.
  if (set) outsideHeldTransaction(() => set.forEach((l) => l(kind)));
}

/** Called with the transaction (or database) that wrote an outbox row. */
export function outboxWritten(q: Queryable, kind: OutboxKind): void {
  // Inside a request's held transaction (or a savepoint of it), the held one's commit announces it.
  const held = heldTransaction();
  const kinds = pending.get(q) ?? (held ? pending.get(held) : undefined);
  if (kinds) kinds.add(kind);
  // Written outside a tracked transaction: the row is committed already (or a nested
  // transaction's parent commits it later, and the poll finds it).
  else fire(q, kind);
}

/** Hears every commit of `db` that wrote to an outbox; returns the unsubscribe. */
export function onOutboxCommit(db: Db, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Makes `db.transaction` announce, after it commits, which outboxes it wrote to. */
export function signalCommits(db: Db): Db {
  const original = db.transaction.bind(db);
  const transaction: Db['transaction'] = async (run, config) => {
    const kinds = new Set<OutboxKind>();
    const result = await original((tx) => {
      kinds.clear(); // a transaction run again starts afresh
      pending.set(tx, kinds);
      return run(tx);
    }, config);
    for (const k of kinds) fire(db, k);
    return result;
  };
  db.transaction = transaction;
  return db;
}
