import type { ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '@remit/contract';

/** How long a client may take, so a slow one cannot hold a connection (docs/operations.md "Time limits"). */
export interface TimeLimits {
  /** The whole request, headers and body, must arrive within this (REMIT_REQUEST_TIMEOUT_MS). */
  requestMs: number;
  /** The request line and headers must arrive within this (REMIT_HEADERS_TIMEOUT_MS). */
  headersMs: number;
  /** An idle kept-alive connection is closed after this (REMIT_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveMs: number;
  /** A connection with no bytes either way for this long is closed (REMIT_IDLE_TIMEOUT_MS). */
  idleMs: number;
}

export const DEFAULT_TIME_LIMITS: TimeLimits = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 5_000,
  idleMs: 60_000,
};

const VARIABLES: Record<keyof TimeLimits, string> = {
  requestMs: 'REMIT_REQUEST_TIMEOUT_MS',
  headersMs: 'REMIT_HEADERS_TIMEOUT_MS',
  keepAliveMs: 'REMIT_KEEP_ALIVE_TIMEOUT_MS',
  idleMs: 'REMIT_IDLE_TIMEOUT_MS',
};

/** The limits from the environment: whole milliseconds, more than 0; headers within the request's. */
export function timeLimitsFromEnv(env: NodeJS.ProcessEnv): TimeLimits {
  const out = { ...DEFAULT_TIME_LIMITS };
  for (const [key, variable] of Object.entries(VARIABLES) as Array<[keyof TimeLimits, string]>) {
    const v = env[variable];
    if (v === undefined || v === '') continue;
    if (!/^\d+$/.test(v.trim()) || Number(v) <= 0)
      throw new Error(`${variable} must be a whole number of milliseconds above 0, not "${v}"`);
    out[key] = Number(v);
  }
  if (out.headersMs > out.requestMs) {
    throw new Error(
      `REMIT_HEADERS_TIMEOUT_MS (${out.headersMs}) must not exceed REMIT_REQUEST_TIMEOUT_MS (${out.requestMs})`,
    );
  }
  return out;
}

/**
 * Fastify's server options for the limits. Node checks the request and header deadlines on an
 * interval (30 s by default, which would let a slow client hold on that much longer): a quarter
 * of the shorter deadline, at most a second.
 */
export function timeLimitOptions(t: TimeLimits): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
} {
  const checkEvery = Math.max(50, Math.min(1000, Math.floor(Math.min(t.requestMs, t.headersMs) / 4)));
  return {
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    http: { requestTimeout: t.requestMs, headersTimeout: t.headersMs, connectionsCheckingInterval: checkEvery },
    clientErrorHandler: answerClientError(t),
  };
}

/**
 * Errors Node raises before a request reaches Fastify (a deadline passed, headers too large, bytes
 * that are not HTTP): answered in the spec's envelope, then the connection is closed.
 */
function answerClientError(t: TimeLimits) {
  return function (this: { log: { debug(o: object, m: string): void } }, err: NodeJS.ErrnoException, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    let status: number;
    let code: ErrorCode;
    let message: string;
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
      [status, code] = [408, 'request_timeout'];
      message = `Request timed out: the whole request (headers and body) must arrive within ${t.requestMs / 1000} seconds, its headers within ${t.headersMs / 1000}.`;
    } else if (err.code === 'HPE_HEADER_OVERFLOW') {
      [status, code, message] = [431, 'headers_too_large', ERROR_CODES.headers_too_large.message!];
    } else {
      [status, code, message] = [400, 'invalid_request', 'Malformed HTTP request.'];
    }
    // The client's doing, not the server's: logged low.
    this.log.debug({ err: { code: err.code, message: err.message } }, `client error ${status}`);
    if (socket.writable) {
      const body = JSON.stringify({ result: false, message, code });
      const reason =
        status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
