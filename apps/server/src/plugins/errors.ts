import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isRemitError, type ErrorKind, type FieldError } from '@remit/core';

/** The one place where errors become the spec's envelope and an HTTP status. */
const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  declined: 402,
  not_found: 404,
  gone: 410,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

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
  code: string,
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

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isRemitError(err)) {
      return sendError(req, reply, STATUS[err.kind], err.code, err.message, err.errors, err.extra);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = fieldErrors(err);
      const summary = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      return sendError(req, reply, 400, 'invalid_request', `Invalid request. ${summary}`, errors);
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = FASTIFY_CODES[err.code] ?? (status === 429 ? 'rate_limited' : 'invalid_request');
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? `Unsupported Content-Type; send application/json.`
          : err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
            ? 'Malformed JSON body.'
            : err.message;
      return sendError(req, reply, status, code, message);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'internal_error', 'Internal server error. Quote request_id when you report it.');
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, 404, 'route_not_found', `No route ${req.method} ${req.url.split('?')[0]}.`),
  );
}
