import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { inTransaction } from '../operation.js';
import type { DeferredCall } from '../processor/deferred.js';
import { recordDeferred } from '../processor/unconfirmed.js';

type Scope = Pick<Ctx, 'db' | 'processor' | 'op' | 'outbox'>;

/**
 * A money operation's write and its processor call, as one: `run` writes first (its guarded
 * statement takes the row lock and checks the rule against the latest row), then calls the
 * processor while the lock is held. A processor that is bookkeeping only (the simulator) cannot
 * fail, so the write needs no transaction of its own; with any other, `run` goes in one and the
 * processor's refusal or failure rolls the write back. Inside a keyed request's held transaction
 * this is a savepoint of it. `run` gets the queryable and the scope to hand on: its `op.deferred`
 * collects the calls whose answer never came (processor/deferred.ts), recorded with the write.
 */
export function withProcessor<C extends Scope, T>(ctx: C, run: (q: Queryable, scoped: C) => Promise<T>): Promise<T> {
  if (ctx.processor.bookkeepingOnly) return run(ctx.db, ctx);
  return inTransaction(ctx, async (q, scoped) => {
    const deferred: DeferredCall[] = [];
    const result = await run(q, { ...scoped, op: { ...scoped.op, deferred } });
    if (deferred.length) await recordDeferred(q, deferred);
    return result;
  });
}
