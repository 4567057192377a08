import { and, eq, lt, or } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { idempotencyKeys } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { digest } from '../secret-keys.js';
import { readAnswer, storeAnswer } from './stored-answer.js';

/** How long a stored response is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim may stay "in progress" before another request may take the key over: a
 * request whose process died (SIGKILL, crash) never completes its claim, and the client's
 * honest retry must not wait 24 hours. Longer than any request may run.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
const IN_PROGRESS = 0;

export type IdempotencyClaim =
  /** `claimedAt` identifies this claim: completing it after another request took the key over does nothing. */
  { kind: 'new'; claimedAt: Date } | { kind: 'replay'; statusCode: number; body: string };

/**
 * Claims an `Idempotency-Key` for a request. The first request stores a placeholder and runs;
 * a repeat with the same request replays its stored response; another request with that key,
 * or a repeat while the first is still running, is a conflict. `request` may be several forms of the
 * one request (its MAC under each key in use during a key rotation): the first is stored, any matches.
 */
export async function claimIdempotencyKey(
  ctx: Pick<Ctx, 'db' | 'now' | 'vault'> & { idempotencyLeaseMs?: number },
  clientId: string,
  key: string,
  request: string | readonly string[],
): Promise<IdempotencyClaim> {
  if (key.length === 0 || key.length > 255) {
    throw new RemitError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 characters.');
  }
  const forms = typeof request === 'string' ? [request] : request;
  const requestHash = digest(forms[0]!);
  const now = ctx.now().getTime();
  const expired = new Date(now - IDEMPOTENCY_TTL_MS);
  const leaseOver = new Date(now - (ctx.idempotencyLeaseMs ?? IDEMPOTENCY_LEASE_MS));
  const claimedAt = new Date(now);
  // A fresh key (the usual case) is one statement; only a key already there is looked at further.
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({ clientId, key, requestHash, statusCode: IN_PROGRESS, responseBody: '', createdAt: claimedAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length) return { kind: 'new', claimedAt };
  // Past its 24 hours, or the claim of a process that died (its lease ran out): the key is free again.
  const freed = await ctx.db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.clientId, clientId),
        eq(idempotencyKeys.key, key),
        or(
          lt(idempotencyKeys.createdAt, expired),
          and(eq(idempotencyKeys.statusCode, IN_PROGRESS), lt(idempotencyKeys.createdAt, leaseOver)),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (freed.length) return claimIdempotencyKey(ctx, clientId, key, request);
  const [row] = await ctx.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key)));
  if (!row) return claimIdempotencyKey(ctx, clientId, key, request);
  if (row.requestHash !== requestHash && !forms.slice(1).some((f) => digest(f) === row.requestHash)) {
    throw new RemitError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  if (row.statusCode === IN_PROGRESS) {
    throw new RemitError(
      'idempotency_key_in_progress',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
    );
  }
  const body = await readAnswer(ctx.db, ctx.vault, row.responseBody);
  // Stored by reference only to records that are never removed (storeAnswer): this is a bug, not a retry.
  if (body === null)
    throw new Error(`The record the stored answer of Idempotency-Key ${JSON.stringify(key)} refers to is gone.`);
  return { kind: 'replay', statusCode: row.statusCode, body };
}

/**
 * Stores the response to replay, encrypted (responses may carry keys such as `merchant_key`), by
 * reference to the record it answers where it names one (stored-answer.ts). The
 * server runs it inside the transaction of the operation it answers, so both commit or neither
 * does. It fails when the claim is no longer this request's (its lease ran out and a retry took
 * the key over): the operation must then not commit, the retry does it.
 */
export async function completeIdempotencyKey(
  ctx: Pick<Ctx, 'db' | 'vault'>,
  clientId: string,
  key: string,
  statusCode: number,
  body: string,
  claimedAt?: Date,
): Promise<void> {
  const stored = await ctx.db
    .update(idempotencyKeys)
    .set({ statusCode, responseBody: await storeAnswer(ctx.db, ctx.vault, body) })
    .where(ownClaim(clientId, key, claimedAt))
    .returning({ key: idempotencyKeys.key });
  if (!stored.length) {
    throw new RemitError(
      'idempotency_key_in_progress',
      'A retry with this Idempotency-Key took it over; its answer is the one kept.',
    );
  }
}

/** Forgets a claimed key: the request it guarded changed nothing worth replaying (invalid input). */
export async function releaseIdempotencyKey(
  ctx: Pick<Ctx, 'db'>,
  clientId: string,
  key: string,
  claimedAt?: Date,
): Promise<void> {
  await ctx.db.delete(idempotencyKeys).where(ownClaim(clientId, key, claimedAt));
}

/** The key's row, and only while it is still this claim (not taken over after its lease ran out). */
function ownClaim(clientId: string, key: string, claimedAt?: Date) {
  const row = and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key));
  return claimedAt ? and(row, eq(idempotencyKeys.createdAt, claimedAt)) : row;
}
