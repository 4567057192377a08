import type { Scoped } from '../operation.js';
import type { OutboxKind } from '../outbox-signal.js';
import type { Db, Tx } from './queryable.js';

/**
 * A transaction held open across the steps of one request (the server opens it before the handler
 * and commits it once the answer is known), so that the answer stored for an `Idempotency-Key`
 * commits with the operation it answers. The request's work gets `ctx`: the same context with the
 * held transaction as its `db` and the client's operation as its `op` (docs/architecture.md, "The
 * operation scope"); whatever it is not given runs on the database, as any other request's work.
 */
export interface HeldTransaction<C extends Scoped> {
  /** The context of the request's work: `db` is the held transaction, `op.key` the operation key. */
  readonly ctx: C;
  /** Runs `last` inside the transaction, then commits and wakes the outboxes it wrote; if `last` or the commit fails, nothing is kept. */
  commit(last?: (ctx: C) => Promise<void>): Promise<void>;
  rollback(): Promise<void>;
  /** Neither committed nor rolled back yet. */
  readonly open: boolean;
}

class Rollback extends Error {}

/**
 * BEGINs a transaction on `ctx.db` (the database) and holds it until `commit` or `rollback`.
 * `operationKey` names the client's operation (its scope and Idempotency-Key), or null.
 */
export async function holdTransaction<C extends Scoped>(
  ctx: C,
  operationKey: string | null,
): Promise<HeldTransaction<C>> {
  let end!: (how: { last?: (ctx: C) => Promise<void> } | null) => void;
  const ended = new Promise<{ last?: (ctx: C) => Promise<void> } | null>((r) => (end = r));
  let begun!: (tx: Tx) => void;
  const started = new Promise<Tx>((r) => (begun = r));
  const outboxes = new Set<OutboxKind>();
  let held!: C;
  const finished = ctx.db.transaction(async (tx) => {
    begun(tx);
    const how = await ended;
    if (!how) throw new Rollback();
    await how.last?.(held);
  });
  const settled = finished.then(
    () => {
      for (const kind of outboxes) ctx.outbox.fire(kind);
    },
    (e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    },
  );
  // Awaited by commit or rollback; marked handled so a failure nobody waits for cannot end the process.
  settled.catch(() => {});
  const endedEarly = settled.then(() => Promise.reject(new Error('The transaction ended before it began.')));
  endedEarly.catch(() => {});
  const tx = await Promise.race([started, endedEarly]);
  held = { ...ctx, db: tx as unknown as Db, op: { key: operationKey, deferred: null, outboxes } };
  let open = true;
  const finish = (how: { last?: (ctx: C) => Promise<void> } | null) => {
    if (!open) return settled;
    open = false;
    end(how);
    return settled;
  };
  return {
    ctx: held,
    commit: (last) => finish({ last }),
    rollback: () => finish(null),
    get open() {
      return open;
    },
  };
}
