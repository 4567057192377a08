/** Real time; tests and the sandbox clock shift it per merchant. */
export type Now = () => Date;

export const systemNow: Now = () => new Date();

/** A merchant's sandbox clock: real time plus the offset `POST /sandbox/advance-clock` added. */
export function merchantNow(now: Now, merchant: { clockOffsetMs: number }): Date {
  return new Date(now().getTime() + merchant.clockOffsetMs);
}
