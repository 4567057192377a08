import type { RemitError } from '../errors.js';
import { and, compile, not, type Expr, type TxnRow, type Values } from './row-expr.js';

/**
 * An operation's guard as its ordered refusals: the first whose `when` holds on the locked row is
 * the error answered (the order of the spec's Errors table); `allows` is the same list as the one
 * condition a guarded statement's WHERE checks against the latest row. One list, so the statement
 * and the refusal cannot disagree.
 */
export interface Refusal {
  when: Expr<boolean>;
  error: (row: TxnRow) => RemitError;
}

export interface Guard {
  /** No refusal applies: the statement's condition. */
  allows: Expr<boolean>;
  /** The first refusal that applies to `row`, or null when the operation may go ahead. */
  refusal(row: TxnRow, v: Values): RemitError | null;
}

export function guard(refusals: readonly Refusal[]): Guard {
  const compiled = refusals.map((r) => ({ when: compile(r.when), error: r.error }));
  return {
    allows: and(...refusals.map((r) => not(r.when))),
    refusal(row, v) {
      for (const r of compiled) if (r.when(row, v)) return r.error(row);
      return null;
    },
  };
}
