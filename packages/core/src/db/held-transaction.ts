import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './queryable.js';

/**
 * A transaction held open across the steps of one request (the server opens it before the handler
 * and commits it once the answer is known), so that the answer stored for an `Idempotency-Key`
 * commits with the operation it answers. While it is held, every use of the database by that
 * request goes to it: `routeToHeldTransaction` makes the handle look the transaction up in the
 * request's async context, so core code keeps taking `ctx.db` and needs no other handle.
 */
interface Hold {
  /** Null once the transaction ends: later work of the request goes to the database again. */
  tx: Tx | null;
  /** The client's request this hold answers, as (scope, Idempotency-Key): the same on its retry. */
  operationKey: string | null;
}

const holds = new AsyncLocalStorage<Hold>();
const routed = new WeakSet<object>();

/** The transaction the current request holds, if any. */
export function heldTransaction(): Tx | null {
  return holds.getStore()?.tx ?? null;
}

/**
 * The operation the current request performs, when it is a keyed request: the same on the client's
 * retry of it (processor/keys.ts derives the processor's idempotency keys from it). Null otherwise.
 */
export function heldOperationKey(): string | null {
  return holds.getStore()?.operationKey ?? null;
}

/**
 * The handle a statement really runs on: the held transaction when `handle` is a routed database
 * and one is held, else `handle` itself (statements prepared per handle are keyed by it).
 */
export function actualHandle<H extends object>(handle: H): H {
  return routed.has(handle) ? ((heldTransaction() as H | null) ?? handle) : handle;
}

/** Runs `fn` outside any held transaction (work that outlives a request: dispatcher wake-ups). */
export function outsideHeldTransaction<T>(fn: () => T): T {
  return holds.exit(fn);
}

/**
 * Makes `db` run on the held transaction of the calling request, if it holds one: the session the
 * query builders take, the relational queries, and `transaction` (a savepoint inside the held one).
 */
export function routeToHeldTransaction(db: Db): Db {
  const own = db as unknown as Record<string, unknown>;
  for (const field of ['session', '_', 'query'] as const) {
    const value = own[field];
    Object.defineProperty(db, field, {
      configurable: true,
      get: () => {
        const tx = holds.getStore()?.tx as unknown as Record<string, unknown> | undefined;
        return tx ? tx[field] : value;
      },
    });
  }
  const transaction = db.transaction.bind(db);
  db.transaction = ((run, config) => {
    const tx = holds.getStore()?.tx;
    return tx ? tx.transaction(run) : transaction(run, config);
  }) as Db['transaction'];
  routed.add(db);
  return db;
}

export interface HeldTransaction {
  /** Runs `fn`, and everything it goes on to start, against the held transaction. */
  run<T>(fn: () => T): T;
  /** Runs `last` inside the transaction, then commits; if `last` or the commit fails, nothing is kept. */
  commit(last?: (tx: Tx) => Promise<void>): Promise<void>;
  rollback(): Promise<void>;
  /** Neither committed nor rolled back yet. */
  readonly open: boolean;
}

class Rollback extends Error {}

/**
 * BEGINs a transaction on `db` and holds it until `commit` or `rollback`. `operationKey` names the
 * client's operation (its scope and Idempotency-Key), readable by `heldOperationKey` inside `run`.
 */
export async function holdTransaction(db: Db, opts: { operationKey?: string } = {}): Promise<HeldTransaction> {
  let end!: (how: { last?: (tx: Tx) => Promise<void> } | null) => void;
  const ended = new Promise<{ last?: (tx: Tx) => Promise<void> } | null>((r) => (end = r));
  let begun!: (tx: Tx) => void;
  const started = new Promise<Tx>((r) => (begun = r));
  // Opened outside any hold of the caller, so it is a transaction of its own, not a savepoint.
  const finished = outsideHeldTransaction(() =>
    db.transaction(async (tx) => {
      begun(tx);
      const how = await ended;
      if (!how) throw new Rollback();
      await how.last?.(tx);
    }),
  );
  const settled = finished.then(
    () => {},
    (e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    },
  );
  // Awaited by commit or rollback; marked handled so a failure nobody waits for cannot end the process.
  settled.catch(() => {});
  const endedEarly = settled.then(() => Promise.reject(new Error('The transaction ended before it began.')));
  endedEarly.catch(() => {});
  const tx = await Promise.race([started, endedEarly]);
  const hold: Hold = { tx, operationKey: opts.operationKey ?? null };
  const finish = (how: { last?: (tx: Tx) => Promise<void> } | null) => {
    if (!hold.tx) return settled;
    hold.tx = null;
    end(how);
    return settled;
  };
  return {
    run: (fn) => holds.run(hold, fn),
    commit: (last) => finish({ last }),
    rollback: () => finish(null),
    get open() {
      return hold.tx !== null;
    },
  };
}
