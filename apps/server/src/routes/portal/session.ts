import type { FastifyReply, FastifyRequest } from 'fastify';
import { PORTAL_COOKIE, PORTAL_CSRF_HEADER, PORTAL_SESSION_MAX_MS } from '@remit/contract';
import { csrfTokenMatches, RemitError, resumeSession, type Ctx } from '@remit/core';

/**
 * The portal's session at the edge: the cookie (HttpOnly, SameSite=Strict, Path=/portal), and
 * the checks every state-changing call passes: a same-origin request (`Origin`, else
 * `Sec-Fetch-Site`) carrying the session's CSRF token in `X-CSRF-Token`.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in client of a portal call. */
    portalClientId: string;
  }
}

/** The value of one cookie of the request, if sent. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const secure = (req: FastifyRequest) => (req.protocol === 'https' ? '; Secure' : '');

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.header(
    'set-cookie',
    `${PORTAL_COOKIE}=${token}; Path=/portal; HttpOnly; SameSite=Strict; Max-Age=${PORTAL_SESSION_MAX_MS / 1000}${secure(req)}`,
  );
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('set-cookie', `${PORTAL_COOKIE}=; Path=/portal; HttpOnly; SameSite=Strict; Max-Age=0${secure(req)}`);
}

export const sessionToken = (req: FastifyRequest) => readCookie(req, PORTAL_COOKIE);

const rejected = (why: string) => new RemitError('csrf_rejected', undefined, { extra: { reason: why } });

/**
 * The request comes from a page of this server: its `Origin` (sent by browsers on every POST,
 * PUT and DELETE) is the server's own, or, without one, `Sec-Fetch-Site` says same-origin. A
 * client that sends neither (curl) is not a browser another site can drive.
 */
export function assertSameOrigin(req: FastifyRequest, publicUrl: string): void {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const own = `${req.protocol}://${req.host}`;
    let publicOrigin: string | null = null;
    try {
      publicOrigin = new URL(publicUrl).origin;
    } catch {
      /* a bad PUBLIC_URL leaves only the request's own host */
    }
    if (origin !== own && origin !== publicOrigin) throw rejected('origin');
    return;
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw rejected('sec-fetch-site');
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The onRequest hook of signed-in portal calls: a live session, and for changes the origin and CSRF token. */
export function requireSession(ctx: Ctx) {
  return async (req: FastifyRequest) => {
    const token = sessionToken(req);
    const { clientId } = await resumeSession(ctx, token);
    if (!SAFE.has(req.method)) {
      assertSameOrigin(req, ctx.publicUrl);
      if (!csrfTokenMatches(token!, req.headers[PORTAL_CSRF_HEADER])) throw rejected('csrf-token');
    }
    req.portalClientId = clientId;
  };
}
