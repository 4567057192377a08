import { durationMs as parse } from '@remit/contract';

/** A duration for `clock.advance`: milliseconds, or text such as `'25h'`, `'3d'`, `'90m'`, `'30s'`, `'1d 2h'`. */
export type Duration = number | string;

/** The milliseconds of a duration (the contract's rule, the same as `POST /testing/clock/advance`'s); throws RangeError. */
export function durationMs(d: Duration): number {
  return parse(d);
}
