import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** CSPRNG bytes drawn in blocks (one call per block, not per id); each byte is handed out once. */
class RandomPool {
  readonly #bytes: Buffer;
  #at: number;
  constructor(size: number) {
    this.#bytes = Buffer.alloc(size);
    this.#at = size;
  }
  take(n: number): Buffer {
    if (n > this.#bytes.length) return randomBytes(n);
    if (this.#at + n > this.#bytes.length) {
      randomFillSync(this.#bytes);
      this.#at = 0;
    }
    return this.#bytes.subarray(this.#at, (this.#at += n));
  }
}
const pool = new RandomPool(4096);
const random = (n: number) => pool.take(n);

/** Random base62 text; 20 characters carry ~119 bits. */
export function randomToken(length = 20): string {
  const bytes = random(length * 2);
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!;
    // Rejection sampling keeps the distribution uniform.
    if (b < 248) out += ALPHABET[b % 62];
    if (i >= bytes.length - 1 && out.length < length) return out + randomToken(length - out.length);
  }
  return out;
}

export const newId = {
  transaction: () => `txn_${randomToken()}`,
  merchant: () => `m_${randomToken()}`,
  payLink: () => `ord_${randomToken()}`,
  event: () => `evt_${randomToken()}`,
  widget: () => `wdg_${randomToken()}`,
  client: () => `cl_${randomToken()}`,
  message: () => `msg_${randomToken()}`,
  paymentMethod: () => `pm_${randomToken()}`,
  gatewayRef: () => `gw_${randomToken(16)}`,
  challenge: () => `chl_${randomToken()}`,
  /** The order_id of a payment request sent from the request-payment widget. */
  widgetRequest: () => `wreq_${randomToken()}`,
  cspReport: () => `csp_${randomToken()}`,
};
