import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  holdTransaction,
  isDatabaseUnavailable,
  isRemitError,
  releaseIdempotencyKey,
  RemitError,
  type Ctx,
  type HeldTransaction,
  type IdempotencyClaim,
} from '@remit/core';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
    idempotencyScope?: string;
    idempotencyClaimedAt?: Date;
    /** The transaction the keyed request's work and its stored answer commit in, together. */
    idempotencyHeld?: HeldTransaction<Ctx>;
    /**
     * The context this request's work runs with: the server's, or for a keyed POST the one scoped
     * to its operation (its held transaction as `db`, its operation key as `op.key`).
     */
    ctx: Ctx;
  }
}

export interface IdempotencyOptions {
  /** Whose keys these are: the API client by default; the pay page scopes them by link id. */
  scope?: (req: FastifyRequest) => string | null;
  /** Every POST must carry a key (the pay page's pay calls). */
  required?: boolean;
  /**
   * A repeat that arrives while the first request still runs waits up to this long for its answer
   * and replays it (a double click gets the same receipt), instead of a 409.
   */
  waitForFirstMs?: number;
  /** A 400 (invalid input, nothing done) is not kept: the key is free again and nothing stays written. */
  forgetInvalid?: boolean;
  /** Bodies carry card or account numbers: the stored request fingerprint is a keyed digest, not a plain hash. */
  sensitiveBodies?: boolean;
}

const clientScope = (req: FastifyRequest) => req.client?.id ?? null;

/**
 * What the request actually sent, as one string: method, URL (query string included) and the
 * parsed body, with uploaded files (Buffers, from multipart) as their SHA-256. A multipart
 * deposit's amount, merchant_key and images count like any JSON field.
 */
export function requestFingerprint(req: FastifyRequest): string {
  const body = JSON.stringify(req.body ?? null, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    return Buffer.isBuffer(raw) ? `sha256:${createHash('sha256').update(raw).digest('hex')}` : v;
  });
  return `${req.method} ${req.url}\n${body}`;
}

/**
 * Answers that are not the server's decision about the request, and so are never replayed: the
 * request timed out (408), was rate limited (429), or the server failed (5xx). The key is freed and
 * the client's retry runs. A client that went away after sending its request in full still gets its
 * answer on the retry: the work was done (a card charged), and running it again would do it twice.
 * An upload cut off midway never claims its key (the body is read in full first).
 */
function notADecision(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** What names the client's operation for the processor: the same (scope, key) is the same operation. */
export const operationKey = (scope: string, key: string) => JSON.stringify([scope, key]);

async function claim(
  ctx: Ctx,
  scope: string,
  key: string,
  request: string | string[],
  waitMs: number,
): Promise<IdempotencyClaim> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return await claimIdempotencyKey(ctx, scope, key, request);
    } catch (e) {
      if (!isRemitError(e) || e.code !== 'idempotency_key_in_progress' || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/**
 * `Idempotency-Key` on POSTs: the first response is stored and replayed for 24 hours. The claim
 * commits at once (a repeat meanwhile sees it in progress); the request's work then runs in a
 * transaction held until the answer is known, and the answer is stored in that same transaction:
 * a crash before the commit leaves nothing done (the retry runs it once the lease is over: the
 * claim of a dead process), a crash after it leaves the answer to replay.
 */
export function registerIdempotency(app: FastifyInstance, ctx: Ctx, opts: IdempotencyOptions = {}) {
  const scopeOf = opts.scope ?? clientScope;
  app.decorateRequest('ctx', null as unknown as Ctx);
  // Synchronous when the request carries no key (no promise per request); the claim is async.
  app.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    req.ctx = ctx;
    if (req.method !== 'POST') return done();
    const header = req.headers['idempotency-key'];
    const scope = scopeOf(req);
    if (typeof header !== 'string' || !scope) {
      if (opts.required) {
        return done(
          new RemitError('invalid_request', 'An Idempotency-Key header is required: one key per payment attempt.'),
        );
      }
      return done();
    }
    claimOrReplay(req, reply, header, scope).then(
      // The rest of the request (later hooks, the handler) takes `req.ctx`: the held transaction's scope.
      (held) => {
        if (held) req.ctx = held.ctx;
        done();
      },
      (err: unknown) => done((err as Error | undefined) ?? new Error('The idempotency claim failed without an error.')),
    );
  });
  const claimOrReplay = async (req: FastifyRequest, reply: FastifyReply, header: string, scope: string) => {
    const raw = requestFingerprint(req);
    // Keyed: the MAC under each key in use, so a repeat matches a MAC made before a key rotation.
    const request = opts.sensitiveBodies ? ctx.vault.macs(raw) : raw;
    const claimed = await claim(ctx, scope, header, request, opts.waitForFirstMs ?? 0);
    if (claimed.kind === 'replay') {
      reply.header('idempotent-replayed', 'true').status(claimed.statusCode).type('application/json');
      reply.send(claimed.body);
      return null;
    }
    try {
      req.idempotencyHeld = await holdTransaction(ctx, operationKey(scope, header));
    } catch (e) {
      await releaseIdempotencyKey(ctx, scope, header, claimed.claimedAt);
      throw e;
    }
    req.idempotencyKey = header;
    req.idempotencyScope = scope;
    req.idempotencyClaimedAt = claimed.claimedAt;
    return req.idempotencyHeld;
  };
  app.addHook(
    'onSend',
    (
      req: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: Error | null, payload?: unknown) => void,
    ) => {
      const held = req.idempotencyHeld;
      if (!held?.open) return done(null, payload);
      finish(req, held, reply.statusCode, String(payload)).then(
        () => done(null, payload),
        (err: unknown) =>
          done((err as Error | undefined) ?? new Error('Storing the idempotent answer failed without an error.')),
      );
    },
  );
  // An answer never sent (the connection ended first) keeps nothing: the retry runs the request.
  app.addHook('onResponse', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const held = req.idempotencyHeld;
    if (!held?.open) return done();
    forget(req, held).then(
      () => done(),
      () => done(),
    );
  });
  const forget = async (req: FastifyRequest, held: HeldTransaction<Ctx>) => {
    try {
      await held.rollback();
      await releaseIdempotencyKey(ctx, req.idempotencyScope!, req.idempotencyKey!, req.idempotencyClaimedAt);
    } catch (err) {
      // The database went away (a failover): the transaction died uncommitted with its connection, and
      // the claim frees itself when its lease ends. The answer already said so; nothing more to undo.
      if (!isDatabaseUnavailable(err)) throw err;
      req.log.warn(
        { cause: (err as Error).message },
        'idempotency claim left to its lease: the database is unavailable',
      );
    }
  };
  const finish = async (req: FastifyRequest, held: HeldTransaction<Ctx>, statusCode: number, body: string) => {
    if ((opts.forgetInvalid && statusCode === 400) || notADecision(statusCode)) return forget(req, held);
    const { idempotencyScope: scope, idempotencyKey: key, idempotencyClaimedAt: claimedAt } = req;
    try {
      await held.commit((scoped) => completeIdempotencyKey(scoped, scope!, key!, statusCode, body, claimedAt));
    } catch (e) {
      // Nothing committed: the key is free for the retry (unless a retry holds it already).
      await releaseIdempotencyKey(ctx, scope!, key!, claimedAt).catch(() => {});
      throw e;
    }
  };
}
