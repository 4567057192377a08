import { and, eq, lt } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { idempotencyKeys } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { digest } from '../keys.js';

/** How long a stored response is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const IN_PROGRESS = 0;

export type IdempotencyClaim =
  | { kind: 'new' }
  | { kind: 'replay'; statusCode: number; body: string };

/**
 * Claims an `Idempotency-Key` for a request. The first request stores a placeholder and runs;
 * a repeat with the same request replays its stored response; another request with that key,
 * or a repeat while the first is still running, is a conflict.
 */
export async function claimIdempotencyKey(
  ctx: Pick<Ctx, 'db' | 'now' | 'vault'>,
  clientId: string,
  key: string,
  request: string,
): Promise<IdempotencyClaim> {
  if (key.length === 0 || key.length > 255) {
    throw new RemitError('invalid', 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 characters.');
  }
  const requestHash = digest(request);
  const expired = new Date(ctx.now().getTime() - IDEMPOTENCY_TTL_MS);
  await ctx.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.createdAt, expired)));
  const inserted = await ctx.db
    .insert(idempotencyKeys)
    .values({ clientId, key, requestHash, statusCode: IN_PROGRESS, responseBody: '', createdAt: ctx.now() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length) return { kind: 'new' };
  const [row] = await ctx.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key)));
  if (!row) return claimIdempotencyKey(ctx, clientId, key, request);
  if (row.requestHash !== requestHash) {
    throw new RemitError('conflict', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  if (row.statusCode === IN_PROGRESS) {
    throw new RemitError('conflict', 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return { kind: 'replay', statusCode: row.statusCode, body: ctx.vault.decrypt(row.responseBody) };
}

/**
 * Stores the response to replay, encrypted (responses may carry keys such as `merchant_key`);
 * a server error releases the key so a retry can run.
 */
export async function completeIdempotencyKey(
  ctx: Pick<Ctx, 'db' | 'vault'>,
  clientId: string,
  key: string,
  statusCode: number,
  body: string,
): Promise<void> {
  const where = and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key));
  if (statusCode >= 500) {
    await ctx.db.delete(idempotencyKeys).where(where);
    return;
  }
  await ctx.db.update(idempotencyKeys).set({ statusCode, responseBody: ctx.vault.encrypt(body) }).where(where);
}

/** Forgets a claimed key: the request it guarded changed nothing worth replaying (invalid input). */
export async function releaseIdempotencyKey(ctx: Pick<Ctx, 'db'>, clientId: string, key: string): Promise<void> {
  await ctx.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key)));
}
