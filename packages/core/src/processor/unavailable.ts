import { ERROR_CODES } from '@remit/contract';
import { RemitError } from '../errors.js';
import type { Processor } from './connector.js';

export const PROCESSOR_UNAVAILABLE_MESSAGE = ERROR_CODES.processor_unavailable.message;

const refuse = () => new RemitError('processor_unavailable');
const refused = async (): Promise<never> => {
  throw refuse();
};

/**
 * Production without a real connector (docs/concepts.md "Sandbox and production"): every call that would move money or accept a
 * card is refused with 503 processor_unavailable, and whatever the operation wrote is rolled back.
 */
export function createUnavailableProcessor(): Processor {
  return {
    name: 'none',
    bookkeepingOnly: false,
    authorizeCard: refused,
    capture: refused,
    cancel: refused,
    refund: refused,
    incrementAuthorization: refused,
    startAchDebit: refused,
    tokenizeCard: refused,
    checkCardNumber() {
      throw refuse();
    },
  };
}
