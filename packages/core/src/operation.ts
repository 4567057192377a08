import type { Db, Queryable, Tx } from './db/connect.js';
import type { OutboxKind, OutboxSignal } from './outbox-signal.js';
import type { DeferredCall } from './processor/deferred.js';

/**
 * What one money operation carries besides the queryable it runs on (`Ctx.db`): who made it
 * creates it and passes it down as a value, never read from async context (docs/architecture.md,
 * "The operation scope").
 */
export interface Operation {
  /**
   * The client's operation, as (scope, Idempotency-Key): the same on the client's retry, so the
   * processor's idempotency keys derive from it (processor/keys.ts). Null: an unkeyed request.
   */
  readonly key: string | null;
  /**
   * Processor calls whose answer never came, to be recorded with the operation and sent again by
   * reconciliation (processor/deferred.ts). Null: nobody collects them, so such a call fails.
   */
  readonly deferred: DeferredCall[] | null;
  /**
   * The outboxes written inside the operation's open transaction, woken once it commits. Null: no
   * transaction is open, so a written row is committed already and its outbox is woken at once.
   */
  readonly outboxes: Set<OutboxKind> | null;
}

/** The operation of work that no client's key names and no transaction holds. */
export const UNSCOPED: Operation = Object.freeze({ key: null, deferred: null, outboxes: null });

/** Whether `op` runs inside a transaction not yet committed (what it wrote, no one else sees yet). */
export const inOpenTransaction = (op: Operation): boolean => op.outboxes !== null;

/** The part of the context an operation's writes need: where they run, the scope, the wake-ups. */
export interface Scoped {
  db: Db;
  op: Operation;
  outbox: OutboxSignal;
}

/** What writes an outbox row takes: the queryable it writes on and the operation it is part of. */
export interface Writer {
  db: Queryable;
  op: Operation;
  outbox: OutboxSignal;
}

/** Says that `s`'s operation wrote an outbox row: woken now, or once its open transaction commits. */
export function outboxWritten(s: Pick<Scoped, 'op' | 'outbox'>, kind: OutboxKind): void {
  if (s.op.outboxes) s.op.outboxes.add(kind);
  else s.outbox.fire(kind);
}

/**
 * Runs `run` in a transaction, with `scoped` the same context on it. Inside an operation's open
 * transaction this is a savepoint of it (its outboxes wake with the outer commit); otherwise a
 * transaction of its own, whose outboxes wake once it commits.
 */
export async function inTransaction<C extends Scoped, T>(ctx: C, run: (tx: Tx, scoped: C) => Promise<T>): Promise<T> {
  if (ctx.op.outboxes) return ctx.db.transaction((tx) => run(tx, { ...ctx, db: tx as unknown as Db }));
  const outboxes = new Set<OutboxKind>();
  const op: Operation = { ...ctx.op, outboxes };
  const result = await ctx.db.transaction((tx) => run(tx, { ...ctx, db: tx as unknown as Db, op }));
  for (const kind of outboxes) ctx.outbox.fire(kind);
  return result;
}
