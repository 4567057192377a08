import { col, compile, oneOf, type Compiled, type TxnRow } from './row-expr.js';

/**
 * The spec's "States and transitions" table as data: state × event → next state. Operations ask
 * `nextState` whether an event is allowed at all; the conditions of the table (settled or not,
 * amounts within the balance, the 24-hour rule) are checked by the operation that owns them.
 */

/** Transaction states and their `is_status` codes (docs/concepts.md "Payments and their states"). Partly refunded stays completed. */
export const IS_STATUS = {
  pending: 0,
  authorized: 1,
  completed: 2,
  declined: 3,
  voided: 4,
  refunded: 5,
  returned: 6,
  /** The processor's answer never came (a timeout, its 5xx): reconciliation asks it and settles the row. */
  processing: 7,
  /**
   * A refund or void record, or a captured preauthorization, whose processor call was refused after
   * Remit had answered (the deferred call, processor/deferred.ts): it did not happen.
   */
  failed: 8,
} as const;

export type TxnState = keyof typeof IS_STATUS;

export type PaymentEvent =
  | 'preauth_update'
  | 'preauth_capture'
  | 'preauth_void'
  | 'void'
  | 'refund'
  /** The refund that takes the rest of the refundable balance. */
  | 'refund_rest'
  /** Full-amount refund of a transaction older than 24 hours: performed as a void. */
  | 'refund_as_void'
  | 'ach_approve'
  | 'ach_decline'
  /** A completed ACH debit returned by the bank after all. */
  | 'ach_return'
  /** The processor, asked, says what became of a `processing` payment. */
  | 'processor_approve'
  | 'processor_preauth'
  | 'processor_decline'
  /** The processor refused a deferred call: its refund or void record, or its capture, failed. */
  | 'processor_refused'
  /** The original of a refused refund: the amount can be refunded again. */
  | 'refund_refused'
  /** The original of a refused void: as it was before (a sale completed, a preauthorization held). */
  | 'void_refused'
  | 'preauth_void_refused';

/**
 * | state      | event           | next       | spec row / effect                                              |
 * |------------|-----------------|------------|----------------------------------------------------------------|
 * | authorized | preauth_update  | authorized | amount changes; `preauth.increment` / `preauth.decrement`      |
 * | authorized | preauth_capture | completed  | capture data; `preauth.charge` + `payment.success`             |
 * | authorized | preauth_void    | voided     | void record; `preauth.void`                                    |
 * | completed  | void            | voided     | only unsettled; void record (Void); `payment.void`             |
 * | completed  | refund          | completed  | within original and remaining; refund record; `payment.refund` |
 * | completed  | refund_rest     | refunded   | the last refund; `payment.refund`                              |
 * | completed  | refund_as_void  | voided     | full amount, older than 24 h; void record; `payment.void`      |
 * | pending    | ach_approve     | completed  | settled at once; `ach.update` Approved + `payment.success`     |
 * | pending    | ach_decline     | returned   | reversal record (Return); `ach.update` Declined                |
 * | completed  | ach_return      | returned   | ACH returned after success: as ach_decline                     |
 * | processing | processor_*     | completed, authorized, declined | what the processor says it did (reconciliation) |
 * | completed  | processor_refused | failed   | a record (or capture) whose deferred call the processor refused |
 * | completed, refunded | refund_refused | completed | its refused refund's amount refundable again   |
 * | voided     | void_refused, preauth_void_refused | completed, authorized | the refused void undone  |
 * Every other pair is refused and leaves the transaction unchanged.
 */
export const TRANSITIONS: Readonly<Record<TxnState, Partial<Record<PaymentEvent, TxnState>>>> = {
  pending: { ach_approve: 'completed', ach_decline: 'returned' },
  authorized: { preauth_update: 'authorized', preauth_capture: 'completed', preauth_void: 'voided' },
  completed: {
    processor_refused: 'failed',
    refund_refused: 'completed',
    void: 'voided',
    refund: 'completed',
    refund_rest: 'refunded',
    refund_as_void: 'voided',
    ach_return: 'returned',
  },
  declined: {},
  voided: { void_refused: 'completed', preauth_void_refused: 'authorized' },
  refunded: { refund_refused: 'completed' },
  returned: {},
  processing: { processor_approve: 'completed', processor_preauth: 'authorized', processor_decline: 'declined' },
  failed: {},
};

/** The states the table allows `event` from. */
export function statesAllowing(event: PaymentEvent): TxnState[] {
  return (Object.keys(TRANSITIONS) as TxnState[]).filter((s) => TRANSITIONS[s][event] !== undefined);
}

/** The one state `event` leads to from every state that allows it (a statement sets it unconditionally). */
export function targetOf(event: PaymentEvent): TxnState {
  const targets = new Set(statesAllowing(event).map((s) => TRANSITIONS[s][event]!));
  if (targets.size !== 1)
    throw new Error(`${event} leads to ${targets.size} states; a statement must choose by the row`);
  return [...targets][0]!;
}

/** The state after `event`, or null when the table does not allow it from `state`. */
export function nextState(state: TxnState, event: PaymentEvent): TxnState | null {
  return TRANSITIONS[state][event] ?? null;
}

const BY_CODE = Object.fromEntries(Object.entries(IS_STATUS).map(([k, v]) => [v, k])) as Record<number, TxnState>;

/** The state an `is_status` code names. */
export function stateOf(isStatus: number): TxnState {
  const s = BY_CODE[isStatus];
  if (!s) throw new Error(`unknown is_status ${isStatus}`);
  return s;
}

/** Column values of a state: `is_status` and the `status` text beside it. */
export const stateColumns = (s: TxnState) => ({ isStatus: IS_STATUS[s], status: s });

/** Transaction types that carry money from a customer and so can be voided or refunded. */
export const PAYMENT_TYPES = ['Sale', 'PreAuth'] as const;

export const isPaymentType = (type: string) => (PAYMENT_TYPES as readonly string[]).includes(type);

/** The row is in one of `states` (as a rule: TypeScript and SQL). */
export const inState = (...states: TxnState[]) =>
  oneOf(
    col.int('isStatus'),
    states.map((s) => IS_STATUS[s]),
    'smallint',
  );

/** The table allows `event` from the row's state (as a rule). */
export const allows = (event: PaymentEvent) => inState(...statesAllowing(event));

const allowsCompiled = new Map<PaymentEvent, Compiled<boolean>>();
const NO_VALUES = {};

/**
 * `allows(event)` asked in TypeScript of an `is_status` code (a row's `isStatus`, a view's
 * `is_status`): the one place code outside this file learns what a state permits.
 */
export function allowsStatus(isStatus: number, event: PaymentEvent): boolean {
  let rule = allowsCompiled.get(event);
  if (!rule) allowsCompiled.set(event, (rule = compile(allows(event))));
  return rule({ isStatus } as TxnRow, NO_VALUES);
}

/** The row is a payment (as a rule). */
export const isPayment = oneOf(col.text('type'), PAYMENT_TYPES, 'text');
