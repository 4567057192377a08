import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are secrets or personal data: `merchant_key` (the README offers it
 * in the query string), any other key, secret, token or password, and card or account data.
 */
const SECRET_PARAM = /key|secret|token|passw|pwd|auth|signature|card|account|ssn|cvc|cvv|routing|number|dob|birth/i;
export const REDACTED = '[Redacted]';
/**
 * Values that are secrets whatever they are called (`?q=4242…`, a merchant key pasted as a path
 * segment): Remit's keys by their prefix, and card, account or social security numbers, which are
 * 9 to 19 digits, spaced or dashed or not. No id Remit issues is a bare run of digits that long.
 */
const SECRET_VALUE = /^(?:(?:sk|mk)_(?:test|live)_|whsec_)|^\d[\d -]{7,24}\d$/i;

function secretValue(raw: string): boolean {
  let v = raw;
  try {
    v = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // judged as written
  }
  v = v.trim();
  if (!SECRET_VALUE.test(v)) return false;
  const digits = v.replace(/[ -]/g, '');
  return !/^\d+$/.test(digits) || (digits.length >= 9 && digits.length <= 19);
}

/**
 * The URL with the value of every secret-looking query parameter, and every secret-shaped value or
 * path segment, replaced by `[Redacted]`.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q))
    .split('/')
    .map((seg) => (seg && secretValue(seg) ? REDACTED : seg))
    .join('/');
  if (q < 0) return path;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return secretValue(pair) ? REDACTED : pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // an undecodable name is judged as written
      }
      return SECRET_PARAM.test(name) || secretValue(pair.slice(eq + 1)) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${path}?${params.join('&')}`;
}

/** Fastify's request line in the log, with the URL redacted. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: unknown;
  cause?: LoggedError;
}

/**
 * Errors as logged: type, message, code and stack, and their causes, nothing else. A failed query
 * (drizzle's `DrizzleQueryError`) carries its parameters (owner date of birth, licence number,
 * addresses…) in `params` and in its message: the log keeps the statement, never the values. The
 * driver's own fields (`detail` can quote a row's values) are dropped.
 */
export function serializeError(err: unknown, depth = 0): LoggedError | unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { query?: unknown; params?: unknown; code?: unknown };
  const failedQuery = typeof e.query === 'string' && 'params' in e;
  const message = failedQuery ? `Failed query: ${e.query}` : e.message;
  const frames = (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const out: LoggedError = {
    type: e.constructor?.name ?? 'Error',
    message,
    stack: [`${e.name}: ${message}`, ...frames].join('\n'),
  };
  if (e.code !== undefined) out.code = e.code;
  if (e.cause !== undefined && depth < 5) out.cause = serializeError(e.cause, depth + 1) as LoggedError;
  return out;
}
