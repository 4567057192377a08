import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import { PORTAL_SESSION_IDLE_MS, PORTAL_SESSION_MAX_MS, type PortalSession, type SignInInput } from '@remit/contract';
import type { Ctx } from '../context.js';
import { portalSessions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { clientAddressKey, verifyCredentials } from '../clients/credentials.js';
import { digest } from '../secret-keys.js';
import type { SignInLimit } from './sign-in-limit.js';

/**
 * Sandbox portal sessions. The cookie carries a random 256-bit token; the table keeps its SHA-256
 * digest only. The CSRF token is derived from the session token (HMAC), so it is never stored and
 * a page that reloads can ask for it again; without the cookie it cannot be computed.
 */

export interface SignedIn {
  /** The cookie value: shown once, never stored. */
  token: string;
  session: PortalSession;
}

export interface ActiveSession {
  clientId: string;
  session: PortalSession;
}

const SESSION_REQUIRED = 'Sign in to the portal first (your session has ended or was never started).';
const sessionRequired = () => new RemitError('unauthorized', SESSION_REQUIRED);

/** Only tokens of this shape are looked up: 43 base64url characters (32 bytes). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function csrfTokenFor(token: string): string {
  return createHmac('sha256', token).update('remit-portal-csrf').digest('base64url');
}

/** Compares in constant time; false for anything but the session's own CSRF token. */
export function csrfTokenMatches(token: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length > 100) return false;
  const a = Buffer.from(csrfTokenFor(token));
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function view(clientId: string, token: string, expiresAt: Date): PortalSession {
  return { client_id: clientId, csrf_token: csrfTokenFor(token), expires_at: expiresAt.toISOString() };
}

const expiry = (created: Date, now: Date) =>
  new Date(Math.min(created.getTime() + PORTAL_SESSION_MAX_MS, now.getTime() + PORTAL_SESSION_IDLE_MS));

/**
 * Checks the client id and secret key and starts a session. Failures count against `limit`
 * (per client id and caller address together, and per caller address) before the secret is even compared once the limit is
 * reached, so guessing stops at the limit. Sandbox only.
 */
export async function signIn(
  ctx: Ctx,
  input: SignInInput,
  from: { address: string },
  limit: SignInLimit,
): Promise<SignedIn> {
  if (ctx.env !== 'sandbox') throw new RemitError('sandbox_only', 'The portal exists only in the sandbox environment.');
  const keys = [`client_address:${clientAddressKey(input.client_id, from.address)}`, `address:${from.address}`];
  await limit.check(keys);
  let clientId: string;
  try {
    clientId = (await verifyCredentials(ctx, input.client_id, input.secret_key)).id;
  } catch (err) {
    if (err instanceof RemitError && err.code === 'unauthorized') await limit.failed(keys);
    throw err;
  }
  await limit.succeeded(keys);
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const expiresAt = expiry(now, now);
  await ctx.db.transaction(async (tx) => {
    // Sessions that ran out are removed here, a few at a time, rather than by a timer.
    await tx.delete(portalSessions).where(lt(portalSessions.expiresAt, now));
    await tx
      .insert(portalSessions)
      .values({ tokenHash: digest(token), clientId, createdAt: now, lastSeenAt: now, expiresAt });
  });
  return { token, session: view(clientId, token, expiresAt) };
}

/**
 * The session a cookie token names, still valid; its idle expiry moves forward (at most once a
 * minute, to keep reads cheap). Unknown, malformed, ended and expired tokens all fail alike (401).
 */
export async function resumeSession(ctx: Ctx, token: string | undefined): Promise<ActiveSession> {
  if (ctx.env !== 'sandbox') throw new RemitError('sandbox_only', 'The portal exists only in the sandbox environment.');
  if (!token || !TOKEN_SHAPE.test(token)) throw sessionRequired();
  const now = ctx.now();
  const hash = digest(token);
  const [row] = await ctx.db
    .select()
    .from(portalSessions)
    .where(and(eq(portalSessions.tokenHash, hash), gt(portalSessions.expiresAt, now)))
    .limit(1);
  if (!row) throw sessionRequired();
  let expiresAt = row.expiresAt;
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    expiresAt = expiry(row.createdAt, now);
    await ctx.db.update(portalSessions).set({ lastSeenAt: now, expiresAt }).where(eq(portalSessions.tokenHash, hash));
  }
  return { clientId: row.clientId, session: view(row.clientId, token, expiresAt) };
}

/** Ends the session on the server: the token signs no one in afterwards. Unknown tokens: nothing to do. */
export async function signOut(ctx: Pick<Ctx, 'db'>, token: string | undefined): Promise<void> {
  if (!token || !TOKEN_SHAPE.test(token)) return;
  await ctx.db.delete(portalSessions).where(eq(portalSessions.tokenHash, digest(token)));
}
