import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorCode, type FieldError } from '@remit/contract';
import { isDatabaseUnavailable, isRemitError } from '@remit/core';

/** The one place where errors become the spec's envelope and an HTTP status (the contract's catalogue gives each code's). */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Webhook-management endpoints answer `status` instead of `result`, as the spec writes. */
    envelope?: 'status';
    /** Reachable without credentials. */
    public?: boolean;
  }
}

export function envelopeKey(req: FastifyRequest): 'result' | 'status' {
  return req.routeOptions.config?.envelope === 'status' ? 'status' : 'result';
}

export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  errors?: FieldError[],
  extra?: Record<string, unknown>,
) {
  return reply.status(status).send({
    [envelopeKey(req)]: false,
    message,
    ...extra,
    code,
    ...(errors && errors.length ? { errors } : {}),
    request_id: req.id,
  });
}

function fieldErrors(err: FastifyError): FieldError[] {
  const list = (err.validation ?? []) as Array<{ instancePath?: string; message?: string }>;
  return list.map((v) => {
    const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    return { path: path || 'body', message: v.message ?? 'is invalid' };
  });
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
};

/** The cause of a failure as one line for the log: its message, and its own cause's (a Stripe or network error). */
export function causeOf(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const text = e instanceof Error ? e.message : String(e);
    parts.push(typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text);
  }
  return parts.join(' <- ');
}

/** The answer says only that the processor failed; the operator's log says why (at warn, with the request id). */
export function logProcessorFailure(req: FastifyRequest, err: Error, provider: string | undefined) {
  const cause = causeOf(err.cause ?? err);
  req.log.warn(
    { provider, cause, route: req.routeOptions.url },
    `processor call failed (${provider ?? 'processor'}): ${cause}`,
  );
}

/**
 * A 502's advice: "the same Idempotency-Key" only to a caller that sent one; one that did not is
 * told a retry is safe (nothing was changed) and how to make the next one safe to repeat.
 */
function processorErrorMessage(req: FastifyRequest, message: string): string {
  if (req.headers['idempotency-key'] || message !== ERROR_CODES.processor_error.message) return message;
  return 'The payment processor could not complete the request; nothing was changed. Retry the request (with an Idempotency-Key header, a retry is never done twice).';
}

/** What a 503 service_unavailable asks: a failover takes seconds (docs/scaling.md). */
const DATABASE_RETRY_AFTER_S = 2;

export function registerErrorHandling(app: FastifyInstance, opts: { processor?: string } = {}) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isRemitError(err)) {
      if (err.code !== 'processor_error')
        return sendError(req, reply, err.status, err.code, err.message, err.errors, err.extra);
      logProcessorFailure(req, err, opts.processor);
      return sendError(
        req,
        reply,
        err.status,
        err.code,
        processorErrorMessage(req, err.message),
        err.errors,
        err.extra,
      );
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = fieldErrors(err);
      const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      return sendError(req, reply, 400, 'invalid_request', `Invalid request. ${summary}`, errors);
    }
    const status = err.statusCode ?? 500;
    if (status >= 500 && isDatabaseUnavailable(err)) {
      // A failover or restart: the request may be retried once the database is back (docs/scaling.md).
      // At info: the pool says once, at warn, that the database was lost.
      req.log.info({ cause: causeOf(err), route: req.routeOptions.url }, 'database unavailable: answered 503');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return sendError(req, reply, 503, 'service_unavailable', ERROR_CODES.service_unavailable.message!);
    }
    if (status >= 400 && status < 500) {
      const code = FASTIFY_CODES[err.code] ?? (status === 429 ? 'rate_limited' : 'invalid_request');
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? ERROR_CODES[code].message!
          : err.message;
      return sendError(req, reply, status, code, message);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'internal_error', ERROR_CODES.internal_error.message!);
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, 404, 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}.`),
  );
}
