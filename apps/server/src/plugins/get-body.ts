import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RemitError } from '@remit/core';
import { parseQueryString } from './query-string.js';

const MAX_GET_BODY = 64 * 1024;

/**
 * The spec puts `merchant_key` in the JSON body of some GETs, and Fastify does not parse GET
 * bodies. Read the raw stream ourselves when a GET announces one.
 */
export function registerGetBody(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (req.method !== 'GET' || req.body != null) return;
    const length = Number(req.headers['content-length'] ?? 0);
    const chunked = req.headers['transfer-encoding'] === 'chunked';
    if (!(length > 0) && !chunked) return;
    if (length > MAX_GET_BODY) throw new RemitError('payload_too_large');
    const type = String(req.headers['content-type'] ?? 'application/json');
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of req.raw) {
        size += (chunk as Buffer).length;
        if (size > MAX_GET_BODY) throw new RemitError('payload_too_large');
        chunks.push(chunk as Buffer);
      }
    } catch (e) {
      if (e instanceof RemitError) throw e;
      // The client went away mid-body: its doing, not a fault of the server's.
      req.log.info({ reason: (e as { code?: string }).code ?? (e as Error).message }, 'client aborted the request body');
      throw new RemitError('invalid_request', 'The request body ended before its announced length.');
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    if (raw.trim() === '') return;
    if (type.includes('application/x-www-form-urlencoded')) {
      req.body = parseQueryString(raw);
      return;
    }
    if (!type.includes('json')) {
      throw new RemitError('unsupported_media_type');
    }
    try {
      req.body = JSON.parse(raw);
    } catch {
      throw new RemitError('malformed_json');
    }
  });
}

/**
 * A `preValidation` hook for GETs that take their parameters in a JSON body (as the spec shows)
 * or in the query string. Fastify refuses a body schema on GET, so the body (read by the hook
 * above) is merged over the query here and the route's one zod schema validates the result as
 * the querystring. When both are given the body wins; a body that is not a JSON object is a 400.
 */
export async function mergeGetBodyIntoQuery(req: FastifyRequest) {
  const body = req.body;
  if (body == null) return;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new RemitError('invalid_request', 'Invalid request. body: must be a JSON object', {
      errors: [{ path: 'body', message: 'must be a JSON object' }],
    });
  }
  req.query = { ...(req.query as object), ...(body as object) };
}
