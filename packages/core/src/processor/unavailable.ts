import { RemitError } from '../errors.js';
import type { Processor } from './connector.js';

export const PROCESSOR_UNAVAILABLE_MESSAGE =
  'No payment processor is configured (REMIT_PROCESSOR): this production server refuses to process payments until a real connector is configured.';

const refuse = () => new RemitError('unavailable', 'processor_unavailable', PROCESSOR_UNAVAILABLE_MESSAGE);

/**
 * Production without a real connector (DESIGN.md): every call that would move money or accept a
 * card is refused with 503 processor_unavailable before anything is written.
 */
export function createUnavailableProcessor(): Processor {
  return {
    name: 'none',
    async authorizeCard() {
      throw refuse();
    },
    async startAchDebit() {
      throw refuse();
    },
    checkCardNumber() {
      throw refuse();
    },
  };
}
