import type { Db, Queryable, Tx } from './db/connect.js';
import { heldTransaction, outsideHeldTransaction } from './db/held-transaction.js';

/**
 * The in-process wake-up of the outbox dispatchers: an operation that writes an event or a
 * message says so, and once its transaction commits the dispatchers of this process hear it and
 * look at once instead of at their next poll. Other processes still find the rows by polling.
 */
export type OutboxKind = 'webhooks' | 'messages';
type Listener = (kind: OutboxKind) => void;

/** Open transactions (`OutboxSignal.transaction` tracks them) and the outboxes they wrote to. */
const pending = new WeakMap<object, Set<OutboxKind>>();
const signals = new WeakMap<object, OutboxSignal>();

/** One database's wake-ups: a storage hook that follows its transactions, and the listeners of their commits. */
export class OutboxSignal {
  readonly #listeners = new Set<Listener>();

  /** `StorageHooks.transaction`: collects the outboxes a transaction writes, announced once it commits. */
  readonly transaction = (tx: Tx) => {
    const kinds = new Set<OutboxKind>();
    pending.set(tx, kinds);
    return () => {
      for (const k of kinds) this.fire(k);
    };
  };

  fire(kind: OutboxKind): void {
    // A dispatcher woken from a request's async context must not run on that request's transaction.
    if (this.#listeners.size) outsideHeldTransaction(() => {
      for (const l of this.#listeners) l(kind);
    });
  }

  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Gives `db` its signal (open.ts does, with the signal's hook passed to connectDatabase). */
export function attachOutboxSignal(db: Db, signal: OutboxSignal): void {
  signals.set(db, signal);
}

/** Called with the transaction (or database) that wrote an outbox row. */
export function outboxWritten(q: Queryable, kind: OutboxKind): void {
  // Inside a request's held transaction (or a savepoint of it), the held one's commit announces it.
  const held = heldTransaction();
  const kinds = pending.get(q) ?? (held ? pending.get(held) : undefined);
  if (kinds) kinds.add(kind);
  // Written outside a tracked transaction: the row is committed already (or a nested
  // transaction's parent commits it later, and the poll finds it).
  else signals.get(q)?.fire(kind);
}

/** Hears every commit of `db` that wrote to an outbox; returns the unsubscribe (nothing to hear without a signal). */
export function onOutboxCommit(db: Db, listener: Listener): () => void {
  return signals.get(db)?.listen(listener) ?? (() => {});
}
