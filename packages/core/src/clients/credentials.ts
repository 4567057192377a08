import { eq, sql } from 'drizzle-orm';
import type { Credentials } from '@remit/contract';
import type { Ctx } from '../context.js';
import { clients } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { newId } from '../ids.js';
import type { Env } from '../environment.js';
import { digest, digestEquals, keyEnv, newKey } from '../secret-keys.js';
import { MERCHANT_EPOCH } from '../merchants/merchant-cache.js';
import type { AuthRow } from './auth-cache.js';

export type { Credentials };

export interface Client {
  id: string;
  env: Env;
}

/** Makes a client and its secret; the secret is returned once and kept only as a digest. */
export async function createCredentials(ctx: Pick<Ctx, 'db' | 'env'>): Promise<Credentials> {
  const id = newId.client();
  const secret = newKey.secret(ctx.env);
  await ctx.db.insert(clients).values({ id, env: ctx.env, secretHash: digest(secret) });
  return { client_id: id, secret_key: secret };
}

/**
 * Gives a client a new secret key (returned once, kept as a digest). Without `overlapMs` the old one
 * stops working at once; with it, the old one keeps working that long beside the new one, so the
 * client's servers can move to the new key without a failed request (docs/operations.md "Rotating keys").
 * The change raises the merchants' epoch in the same transaction, so every process's
 * cached digest of the old secret is checked again (`confirmClient`) at its next request.
 */
export async function rotateClientSecret(
  ctx: Pick<Ctx, 'db' | 'env' | 'authCache'>,
  clientId: string,
  opts: { overlapMs?: number } = {},
): Promise<Credentials & { previous_valid_until: string | null }> {
  const secret = newKey.secret(ctx.env);
  const until = opts.overlapMs ? new Date(Date.now() + opts.overlapMs) : null;
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(clients)
      .set({
        secretHash: digest(secret),
        // Only the secret in use now overlaps: a rotation during an overlap ends the one before.
        previousSecretHash: until ? sql`${clients.secretHash}` : null,
        previousSecretUntil: until,
      })
      .where(eq(clients.id, clientId))
      .returning({ env: clients.env });
    if (!row) throw new RemitError('client_not_found', `No client has the id ${clientId}.`);
    if (row.env !== ctx.env)
      throw new RemitError(
        'client_not_found',
        `The client ${clientId} belongs to the ${row.env} environment; this configuration is ${ctx.env}.`,
      );
    await tx.execute(sql`update merchant_epoch set epoch = epoch + 1`);
  });
  ctx.authCache.delete(clientId);
  return { client_id: clientId, secret_key: secret, previous_valid_until: until?.toISOString() ?? null };
}

/** `withEpoch`: read the merchants' epoch with the row, for `confirmClient` to check the entry against. */
async function loadAuthRow(ctx: Pick<Ctx, 'db' | 'authCache'>, clientId: string, withEpoch = true) {
  const [row] = await ctx.db
    .select({
      secretHash: clients.secretHash,
      previousSecretHash: clients.previousSecretHash,
      previousSecretUntil: clients.previousSecretUntil,
      env: clients.env,
      ...(withEpoch ? { epoch: MERCHANT_EPOCH } : {}),
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!row) return undefined;
  ctx.authCache.set(clientId, row);
  return row;
}

const unauthorized = (message: string) => new RemitError('unauthorized', message);

const MISSING = 'Authentication required: send HTTP Basic credentials (username client_id, password secret_key).';
const WRONG = 'Invalid client credentials.';
/** Compared against when the client id is unknown; no secret has this digest. */
const DUMMY_DIGEST = digest('remit: no client has this secret');

/** The current secret, or the one a rotation replaced while its overlap lasts. */
function secretMatches(secret: string, row: AuthRow): boolean {
  const current = digestEquals(secret, row.secretHash);
  const overlapping =
    row.previousSecretHash !== null &&
    row.previousSecretUntil !== null &&
    row.previousSecretUntil.getTime() > Date.now();
  // Both comparisons always run: the time of an answer does not tell which secret matched.
  const previous = digestEquals(secret, overlapping ? row.previousSecretHash! : DUMMY_DIGEST);
  return current || (overlapping && previous);
}

/**
 * The client id an `Authorization: Basic …` header claims, checked or not (rate limits count
 * failures per claimed id); null when the header names none.
 */
export function claimedClientId(header: string | undefined): string | null {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 1 ? null : decoded.slice(0, Math.min(colon, 100));
}

/**
 * The key under which failed authentications count per claimed client id and address (HTTP Basic
 * and portal sign-in alike). The address comes first, so a cut of a long key never drops it.
 */
export const clientAddressKey = (clientId: string, address: string) => `${address} ${clientId}`;

/** Checks an `Authorization: Basic …` header against the stored client. */
export async function authenticateClient(
  ctx: Pick<Ctx, 'db' | 'env' | 'authCache'>,
  header: string | undefined,
): Promise<Client> {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) throw unauthorized(MISSING);
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw unauthorized(MISSING);
  return verifyCredentials(ctx, decoded.slice(0, colon), decoded.slice(colon + 1));
}

/** Checks a client id and secret key (the Basic header's two halves, or the portal's sign-in form). */
export async function verifyCredentials(
  ctx: Pick<Ctx, 'db' | 'env' | 'authCache'>,
  clientId: string,
  secret: string,
): Promise<Client> {
  const secretEnv = keyEnv(secret);
  if (secretEnv && secretEnv !== ctx.env) {
    throw unauthorized(
      `This secret key belongs to the ${secretEnv} environment; this server is ${ctx.env}. Use a ${ctx.env} key.`,
    );
  }
  if (clientId.length > 100) throw unauthorized(WRONG);
  // The cache serves the right secret only. Any failure costs one lookup and one comparison,
  // against a dummy digest when the id is unknown: an unknown client_id and a wrong secret
  // answer in the same time, so 401s do not tell which client ids exist.
  let row: AuthRow | undefined = ctx.authCache.get(clientId);
  if (!row || !secretMatches(secret, row)) {
    row = await loadAuthRow(ctx, clientId);
    const matches = row ? secretMatches(secret, row) : digestEquals(secret, DUMMY_DIGEST);
    if (!row || !matches) throw unauthorized(WRONG);
  }
  if (row.env !== ctx.env) {
    throw unauthorized(`These credentials belong to the ${row.env} environment; this server is ${ctx.env}.`);
  }
  return { id: clientId, env: row.env as Env };
}

/**
 * After the request's first statement read the merchants' epoch (`seenEpoch`; undefined when none
 * was read): a client whose cached digest was read at another epoch is looked up again, so a secret
 * rotated by another process stops working at once (the same check on PGlite and Postgres).
 */
export async function confirmClient(
  ctx: Pick<Ctx, 'db' | 'env' | 'authCache'>,
  header: string | undefined,
  seenEpoch: number | undefined,
): Promise<void> {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  const decoded = m ? Buffer.from(m[1]!, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = decoded.slice(0, colon);
  const cached = ctx.authCache.get(clientId);
  if (cached && seenEpoch !== undefined && cached.epoch === seenEpoch) return;
  // No epoch read (every API limit off): the client is looked up on each request, as the merchant is.
  const row = await loadAuthRow(ctx, clientId, seenEpoch !== undefined);
  if (!row || !secretMatches(decoded.slice(colon + 1), row)) throw unauthorized(WRONG);
}
