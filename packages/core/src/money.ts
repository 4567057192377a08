/** Money is integer minor units (cents) inside; decimal text or numbers only at the edges. */
export type Cents = number;

/** Parsing of amounts on the wire is part of the contract. */
export { parseAmountText, parseAmountNumber } from '@remit/contract';

/** 1230 → "12.30"; negative amounts keep their sign. */
export function formatAmount(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 1230 → 12.3 as a JSON number (the spec types some amounts as numbers). */
export function amountNumber(cents: Cents): number {
  return Number(formatAmount(cents));
}

/** Rate in units of 1e-7 percent → "2.9000000". */
export function formatRate(rateE7: number): string {
  return `${Math.floor(rateE7 / 1e7)}.${String(rateE7 % 1e7).padStart(7, '0')}`;
}

/** cents × rate, rounded half up, with rate in units of 1e-7 percent. */
export function applyRate(amount: Cents, rateE7: number): Cents {
  const num = BigInt(amount) * BigInt(rateE7);
  const den = 1_000_000_000n;
  return Number((num + den / 2n) / den);
}
