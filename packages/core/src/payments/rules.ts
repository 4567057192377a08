import { errorMessage } from '@remit/contract';
import { invalid } from '../errors.js';
import { guard, type Guard } from './guard.js';
import { and, coalesce, col, eq, gt, lit, lt, ne, neg, not, or, param, sub, type Expr } from './row-expr.js';
import { settledBy } from './settlement.js';
import { allows, inState, isPayment, stateOf, type TxnState } from './state.js';

/**
 * The money rules of refunds, voids and preauthorizations, each written once: the guard an
 * operation's statement checks in its WHERE and the refusal answered from the locked row are the
 * same `Guard`; the amounts a record takes are the same `Expr` in the statement and in TypeScript.
 * Parameters (the `param`s below) are named as the statements' placeholders.
 */

/** The spec's refund messages, from the error catalogue. */
export const REFUND_MESSAGES = {
  notFound: errorMessage('not_refundable'),
  overOriginal: errorMessage('amount_over_original'),
  overRemaining: errorMessage('amount_over_remaining'),
  alreadyRefunded: errorMessage('already_refunded'),
} as const;

export const SETTLED_VOID_MESSAGE = errorMessage('transaction_settled');
export const AMOUNT_MISMATCH_MESSAGE = errorMessage('amount_mismatch');

/** The 24-hour rule (docs/concepts.md "Payments and their states"): a full-amount refund of an older payment is performed as a void. */
export const FULL_REFUND_VOID_AGE_MS = 24 * 3_600_000;

const amount = col.cents('amountCents');
const refunded = col.cents('refundedCents');

/** What a preauthorization holds. */
export const heldCents = coalesce(col.centsOrNull('authorizedCents'), amount);

/** What is left to refund. */
export const refundableCents = sub(amount, refunded);

const VOID_TAKES: Partial<Record<TxnState, Expr<number>>> = { authorized: heldCents, completed: refundableCents };

/** What a void from `state` takes back (an open hold whole; a payment, what is not yet refunded), or null when no void starts there. */
export const voidTakes = (state: TxnState): Expr<number> | null => VOID_TAKES[state] ?? null;

/** A void record's net: it cancels the rest of the original's net, so the original and its records sum to zero. */
export const voidNetCents = neg(sub(col.cents('netCents'), refunded));

const cents = param.cents('cents');

/** `POST /order/sales-return` of `cents`, in the order of the spec's Errors table. */
export const refundGuard: Guard = guard([
  {
    when: and(isPayment, inState('refunded')),
    error: () => invalid('already_refunded', REFUND_MESSAGES.alreadyRefunded),
  },
  { when: or(not(isPayment), not(allows('refund'))), error: () => invalid('not_refundable', REFUND_MESSAGES.notFound) },
  { when: gt(cents, amount), error: () => invalid('amount_over_original', REFUND_MESSAGES.overOriginal) },
  { when: gt(cents, refundableCents), error: () => invalid('amount_over_remaining', REFUND_MESSAGES.overRemaining) },
]);

/** The refund of `cents` takes the rest: the payment becomes refunded. */
export const refundTakesRest = eq(cents, refundableCents);

/**
 * The 24-hour rule: a refund of the whole amount, nothing refunded yet, of a payment completed
 * before `voidAge` (24 hours before now) is performed as a void instead.
 */
export const refundIsVoid = and(
  eq(cents, amount),
  eq(refunded, lit.cents(0)),
  lt(coalesce(col.atOrNull('completedAt'), col.at('createdAt')), param.at('voidAge')),
);

/** `POST /order/sales-void` at the settlement cutoff `cutoff`. */
export const voidGuard: Guard = guard([
  {
    when: not(isPayment),
    error: (row) => invalid('not_voidable', `Only a payment can be voided; ${row.id} is a ${row.type} record.`),
  },
  { when: settledBy, error: () => invalid('transaction_settled', SETTLED_VOID_MESSAGE) },
  { when: inState('voided'), error: () => invalid('already_voided', 'The transaction has already been voided.') },
  {
    when: inState('refunded'),
    error: () => invalid('already_refunded', 'The transaction has been fully refunded; there is nothing left to void.'),
  },
  {
    when: inState('authorized'),
    error: () => invalid('not_voidable', 'This is an open preauthorization; void it with POST /preauth/void.'),
  },
  {
    when: not(allows('void')),
    error: (row) =>
      invalid(
        'not_voidable',
        `Only a completed transaction can be voided; this transaction is ${stateOf(row.isStatus)}.`,
      ),
  },
]);

type PreauthEvent = 'preauth_update' | 'preauth_capture' | 'preauth_void';

const VERB: Record<PreauthEvent, string> = {
  preauth_update: 'updated',
  preauth_capture: 'captured',
  preauth_void: 'voided',
};

/** Why a preauthorization in `state` cannot take `event`. */
function preauthClosed(state: TxnState, event: PreauthEvent) {
  const captured = state === 'completed' || state === 'refunded';
  const why = state === 'voided' ? 'has been voided' : captured ? 'has already been captured' : `is ${state}`;
  const code = state === 'voided' ? 'preauth_voided' : captured ? 'preauth_captured' : 'preauth_not_open';
  return invalid(code, `The preauthorization ${why}; it can no longer be ${VERB[event]}.`);
}

/** Only the original preauthorization is accepted (not its records), in a state that allows `event`. */
const preauthRefusals = (event: PreauthEvent) => [
  {
    when: ne(col.text('type'), lit.text('PreAuth')),
    error: (row: { id: string; type: string }) =>
      invalid(
        'not_original_preauth',
        `transaction_id must be the original preauthorization ID; ${row.id} is a ${row.type} transaction, not a preauthorization.`,
      ),
  },
  { when: not(allows(event)), error: (row: { isStatus: number }) => preauthClosed(stateOf(row.isStatus), event) },
];

/** `POST /preauth/update`: a compare-and-set on the amount held, `last` (`last_authorized_amount`). */
export const preauthUpdateGuard: Guard = guard([
  ...preauthRefusals('preauth_update'),
  { when: ne(heldCents, param.cents('last')), error: () => invalid('amount_mismatch', AMOUNT_MISMATCH_MESSAGE) },
]);

export const preauthCaptureGuard: Guard = guard(preauthRefusals('preauth_capture'));
export const preauthVoidGuard: Guard = guard(preauthRefusals('preauth_void'));
