/**
 * The one domain error. `kind` decides the HTTP status at the edge; `code` is the stable
 * machine-readable name clients may switch on; `message` is what the spec says to say.
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

export interface FieldError {
  path: string;
  message: string;
}

export class RemitError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly errors?: FieldError[];
  /** Extra envelope fields a failure may carry (for example `link_id`). */
  readonly extra?: Record<string, unknown>;

  constructor(
    kind: ErrorKind,
    code: string,
    message: string,
    opts: { errors?: FieldError[]; cause?: unknown; extra?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'RemitError';
    this.kind = kind;
    this.code = code;
    this.errors = opts.errors;
    this.extra = opts.extra;
  }
}

export const invalid = (code: string, message: string, errors?: FieldError[]) =>
  new RemitError('invalid', code, message, { errors });

export const notFound = (code: string, message: string) => new RemitError('not_found', code, message);

export const UNAUTHORIZED_MERCHANT_MESSAGE =
  'Invalid merchant_key: no merchant with this key belongs to your client.';

export const unauthorizedMerchant = () =>
  new RemitError('unauthorized', 'invalid_merchant_key', UNAUTHORIZED_MERCHANT_MESSAGE);

export const isRemitError = (e: unknown): e is RemitError => e instanceof RemitError;
