import { fields } from '@remit/contract';

/** The request field shapes live in `@remit/contract`; core reads them from here. */
export { MAX_AMOUNT_CENTS, normalizePhone } from '@remit/contract';
export const {
  amount,
  flag,
  text,
  optionalText,
  merchantKey,
  dateText,
  email,
  phone,
  intLike,
  requireAPaymentMethod,
  transactionId,
} = fields;
