import { ERROR_CODES, type ErrorCode, type FieldError } from '@remit/contract';

/**
 * The one domain error. `code` is a code of the contract's catalogue, which also gives its HTTP
 * status and, where the spec has one, its message; `kind` names the status for core callers.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'declined'
  | 'not_found'
  /** The resource existed and was removed (a cancelled pay link): 410. */
  | 'gone'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

export type { ErrorCode, FieldError };

const KIND_OF_STATUS: Record<number, ErrorKind> = {
  401: 'unauthorized',
  402: 'declined',
  403: 'forbidden',
  404: 'not_found',
  410: 'gone',
  409: 'conflict',
  413: 'too_large',
  429: 'rate_limited',
};

export class RemitError extends Error {
  readonly code: ErrorCode;
  /** The HTTP status of `code`, from the catalogue. */
  readonly status: number;
  readonly kind: ErrorKind;
  readonly errors?: FieldError[];
  /** Extra envelope fields a failure may carry (for example `link_id`). */
  readonly extra?: Record<string, unknown>;

  /** Without a message, the catalogue's message of the code. */
  constructor(
    code: ErrorCode,
    message?: string,
    opts: { errors?: FieldError[]; cause?: unknown; extra?: Record<string, unknown> } = {},
  ) {
    const entry = ERROR_CODES[code];
    super(message ?? entry.message ?? code, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'RemitError';
    this.code = code;
    this.status = entry.status;
    this.kind = KIND_OF_STATUS[entry.status] ?? (entry.status >= 500 ? 'unavailable' : 'invalid');
    this.errors = opts.errors;
    this.extra = opts.extra;
  }
}

export const invalid = (code: ErrorCode, message?: string, errors?: FieldError[]) =>
  new RemitError(code, message, { errors });

export const notFound = (code: ErrorCode, message?: string) => new RemitError(code, message);

export const UNAUTHORIZED_MERCHANT_MESSAGE = ERROR_CODES.invalid_merchant_key.message;

export const unauthorizedMerchant = () => new RemitError('invalid_merchant_key');

export const UNAUTHORIZED_PUBLIC_KEY_MESSAGE = ERROR_CODES.invalid_public_key.message;

export const unauthorizedPublicKey = () => new RemitError('invalid_public_key');

export const isRemitError = (e: unknown): e is RemitError => e instanceof RemitError;
