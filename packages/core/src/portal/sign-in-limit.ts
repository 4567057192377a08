import { RemitError } from '../errors.js';

/**
 * How failed portal sign-ins are limited (the server backs it with the shared database limiter).
 * `check` refuses (429 `rate_limited`, with `retry_after` seconds) once a key has used its
 * failures; `failed` counts one; `succeeded` is told of a success. Keys are
 * `client_address:<clientAddressKey>` and `address:<ip>`.
 */
export interface SignInLimit {
  check(keys: string[]): Promise<void>;
  failed(keys: string[]): Promise<void>;
  succeeded(keys: string[]): Promise<void>;
}

export const signInLimited = (retryAfterSeconds: number) =>
  new RemitError(
    'rate_limited',
    `Too many failed sign-ins. Try again in ${retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`}, or create new credentials.`,
    { extra: { retry_after: retryAfterSeconds } },
  );
