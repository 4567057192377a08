import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { RemitError } from '@remit/core';
import { parseQueryString } from './query-string.js';
import { hookStep } from './hook-step.js';

const MAX_GET_BODY = 64 * 1024;

/**
 * The spec puts `merchant_key` in the JSON body of some GETs, and Fastify does not parse GET
 * bodies. Read the raw stream ourselves when a GET announces one.
 */
export function registerGetBody(app: FastifyInstance) {
  // Synchronous when there is nothing to read (every request but a GET with a body): no promise.
  app.addHook('preValidation', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (req.method !== 'GET' || req.body != null) return done();
    const length = Number(req.headers['content-length'] ?? 0);
    const chunked = req.headers['transfer-encoding'] === 'chunked';
    if (!(length > 0) && !chunked) return done();
    if (length > MAX_GET_BODY) return done(new RemitError('payload_too_large'));
    // Usually the whole body came in the packet with the headers and waits in the stream by now:
    // read and parse it at once, with no promise and no stream listeners.
    const buffered = bufferedBody(req.raw);
    if (!buffered) return hookStep(readGetBody(req), done);
    try {
      setGetBody(req, buffered);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
}

/** The whole body when the request has been received in full (none of it read yet), else null. */
function bufferedBody(raw: IncomingMessage): Buffer | null {
  if (!raw.complete || raw.readableFlowing !== null) return null;
  const body = raw.read() as Buffer | null;
  return body ?? Buffer.alloc(0);
}

/** The premature end for-await over the stream reports (its code is what the log line names). */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

/**
 * The raw body, by the stream's events rather than `for await` (whose async iterator cost a list
 * request more than the rest of this hook). Past the limit the 413 is thrown; an error or a close
 * before the end rejects.
 */
function readRaw(raw: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err?: Error) => {
      raw.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_GET_BODY) return void chunks.push(chunk);
      // As Fastify does past its body limit: stop collecting, answer the 413, let the rest drain
      // (the request's time limit still bounds it). Destroying the stream would also end the
      // connection before the 413 goes out, and the client would see a reset instead.
      settle(new RemitError('payload_too_large'));
      raw.resume();
    };
    const onEnd = () => settle();
    const onError = (e: Error) => settle(e);
    const onClose = () => settle(prematureClose());
    raw.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

async function readGetBody(req: FastifyRequest): Promise<void> {
  let body: Buffer;
  try {
    body = await readRaw(req.raw);
  } catch (e) {
    if (e instanceof RemitError) throw e;
    // The client went away mid-body: its doing, not a fault of the server's.
    req.log.info({ reason: (e as { code?: string }).code ?? (e as Error).message }, 'client aborted the request body');
    throw new RemitError('invalid_request', 'The request body ended before its announced length.');
  }
  setGetBody(req, body);
}

/** `req.body` from a GET's raw body: JSON (the default) or form-encoded; other types are a 415. */
function setGetBody(req: FastifyRequest, body: Buffer): void {
  if (body.length > MAX_GET_BODY) throw new RemitError('payload_too_large');
  const type = String(req.headers['content-type'] ?? 'application/json');
  const raw = body.toString('utf8');
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
}

/**
 * A `preValidation` hook for GETs that take their parameters in a JSON body (as the spec shows)
 * or in the query string. Fastify refuses a body schema on GET, so the body (read by the hook
 * above) is merged over the query here and the route's one zod schema validates the result as
 * the querystring. When both are given the body wins; a body that is not a JSON object is a 400.
 */
export function mergeGetBodyIntoQuery(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  // Callback-style: it never waits, and an async hook costs a promise on every request.
  const body = req.body;
  if (body == null) {
    done();
    return;
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    done(
      new RemitError('invalid_request', 'Invalid request. body: must be a JSON object', {
        errors: [{ path: 'body', message: 'must be a JSON object' }],
      }),
    );
    return;
  }
  req.query = { ...(req.query as object), ...(body as object) };
  done();
}
