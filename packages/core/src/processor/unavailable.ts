import { ERROR_CODES } from '@remit/contract';
import { RemitError } from '../errors.js';
import type { Processor } from './connector.js';

export const PROCESSOR_UNAVAILABLE_MESSAGE = ERROR_CODES.processor_unavailable.message;

const refuse = () => new RemitError('processor_unavailable');

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
