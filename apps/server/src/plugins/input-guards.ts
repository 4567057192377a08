import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ErrorCode } from '@remit/contract';
import { RemitError } from '@remit/core';
import { sendError } from './errors.js';
import { MalformedText } from './query-string.js';

const NUL_RULE = 'must not contain a NUL character';
const SURROGATE_RULE = 'must not contain an unpaired UTF-16 surrogate';
const ENCODING_RULE = 'must be UTF-8 text, correctly percent-encoded';
const MAX_DEPTH = 32;
/** With the `u` flag a paired surrogate is one code point; only an unpaired one is `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string cannot be taken as text, or null when it can. */
function textFault(s: string): string | null {
  if (s.includes('\u0000')) return NUL_RULE;
  if (LONE_SURROGATE.test(s)) return SURROGATE_RULE;
  return null;
}

export interface TextFault {
  path: string;
  rule: string;
}

/** The first string (or key) in `v` that is not storable text: a NUL or a lone surrogate. */
export function findTextFault(v: unknown, path = '', depth = 0): TextFault | null {
  if (typeof v === 'string') {
    const rule = textFault(v);
    return rule ? { path, rule } : null;
  }
  if (v instanceof MalformedText) return { path, rule: ENCODING_RULE };
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(v)) return null;
  for (const [k, child] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k;
    const keyRule = textFault(k);
    if (keyRule) return { path: p, rule: keyRule };
    const hit = findTextFault(child, p, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/** Throws the 400 naming the field when `v` holds a string that is not storable text. */
export function assertText(v: unknown, path = ''): void {
  const fault = findTextFault(v, path);
  if (!fault) return;
  const where = fault.path || 'body';
  throw new RemitError('invalid_request', `Invalid request. ${where}: ${fault.rule}`, {
    errors: [{ path: where, message: fault.rule }],
  });
}

/**
 * Postgres `text` cannot hold U+0000, and a lone UTF-16 surrogate ("\ud800" in JSON) is not a
 * character: the driver fails on one (a 500) or stores U+FFFD in its place. One check before
 * validation turns either into a 400 naming the field for every route: body, path and query.
 * Register after the get-body hook so GET bodies are covered. (Multipart fields are checked
 * where they are read.)
 */
export function registerInputGuards(app: FastifyInstance) {
  // Synchronous (no promise per request): the check never waits on anything.
  app.addHook('preValidation', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    try {
      assertText(req.params);
      assertText(req.query);
      assertText(req.body);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_BAD_URL: 'invalid_request',
  FST_ERR_MAX_PARAM_LENGTH: 'invalid_request',
  FST_ERR_ASYNC_CONSTRAINT: 'invalid_request',
};

/**
 * Fastify's `frameworkErrors` option: errors raised by the router before any hook (a malformed
 * URL, a path parameter over `maxParamLength`) answer the error envelope too, not Fastify's own body.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long; no resource has such an id.'
      : err.code === 'FST_ERR_BAD_URL'
        ? 'Malformed URL.'
        : err.message;
  return sendError(req, reply, status, FRAMEWORK_CODES[err.code] ?? 'invalid_request', message);
}
