import { TESTING_OUTCOMES } from '@remit/contract';

/**
 * What `sandbox.fail(next)` makes the simulated network do to the next payment, whatever the
 * card or account:
 * - `decline`: the card is declined (`card_declined`);
 * - `insufficient_funds`: declined for insufficient funds;
 * - `3ds_failure`: a 3-D Secure challenge is asked for, and the card is declined after it (`authentication_failed`);
 * - `timeout`: the processor does not answer in time: the payment is left `processing` (HTTP 202), its outcome unknown;
 * - `ach_return`: the next bank (ACH) payment is returned by the bank (R01 Insufficient Funds) as soon as it is made.
 */
export type ForcedOutcome = 'decline' | 'insufficient_funds' | '3ds_failure' | 'timeout' | 'ach_return';

/** The contract's list (`POST /testing/fail` takes the same); typed here so the kit's types stand alone. */
export const FORCED_OUTCOMES: readonly ForcedOutcome[] = TESTING_OUTCOMES;
