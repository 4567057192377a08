import { ERROR_CODES, isErrorCode } from '@remit/contract';
import { RemitError } from '../errors.js';

/** A processor's decline code as ours: one of the catalogue's 402 codes, else the generic decline. */
export function declineCode(code: string): string {
  return isErrorCode(code) && ERROR_CODES[code].status === 402 ? code : 'card_declined';
}

/** The 402 answer of a decline, naming the transaction it concerns. */
export function declined(code: string, message: string, transactionId: string): RemitError {
  return new RemitError(declineCode(code) as 'card_declined', message, { extra: { transaction_id: transactionId } });
}
