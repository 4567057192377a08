import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '@remit/contract';
import { RemitError } from '@remit/core';
import { sendError } from './errors.js';

const NUL_RULE = 'must not contain a NUL character';
const MAX_DEPTH = 32;

/** The path of the first string (or key) holding U+0000, or null. */
function findNul(v: unknown, path: string, depth = 0): string | null {
  if (typeof v === 'string') return v.includes('\u0000') ? path : null;
  if (v === null || typeof v !== 'object' || depth > MAX_DEPTH) return null;
  for (const [k, child] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return p;
    const hit = findNul(child, p, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * Postgres `text` cannot hold U+0000, so a NUL anywhere in the input would reach the driver as
 * a 500. One check before validation turns it into a 400 for every route, path and query too.
 * Register after the get-body hook so GET bodies are covered.
 */
export function registerInputGuards(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    const where = findNul(req.params, '') ?? findNul(req.query, '') ?? findNul(req.body, '');
    if (where !== null) {
      const path = where || 'body';
      throw new RemitError('invalid_request', `Invalid request. ${path}: ${NUL_RULE}`, {
        errors: [{ path, message: NUL_RULE }],
      });
    }
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
