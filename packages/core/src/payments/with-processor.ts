import type { Ctx } from '../context.js';
import type { Queryable } from '../db/connect.js';
import { collectDeferred } from '../processor/deferred.js';
import { recordDeferred } from '../processor/unconfirmed.js';

/**
 * A money operation's write and its processor call, as one: `run` writes first (its guarded
 * statement takes the row lock and checks the rule against the latest row), then calls the
 * processor while the lock is held. A processor that is bookkeeping only (the simulator) cannot
 * fail, so the write needs no transaction of its own; with any other, `run` goes in one and the
 * processor's refusal or failure rolls the write back. Inside a keyed request's held transaction
 * this is a savepoint of it.
 */
export function withProcessor<T>(ctx: Pick<Ctx, 'db' | 'processor'>, run: (q: Queryable) => Promise<T>): Promise<T> {
  if (ctx.processor.bookkeepingOnly) return run(ctx.db);
  return ctx.db.transaction(async (q) => {
    // A call whose answer never came stands recorded, unconfirmed, for reconciliation to send again (processor/deferred.ts).
    const { result, deferred } = await collectDeferred(() => run(q));
    if (deferred.length) await recordDeferred(q, deferred);
    return result;
  });
}
