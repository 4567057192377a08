import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { PORTAL_COOKIE, PORTAL_CSRF_HEADER, PORTAL_SESSION_MAX_MS } from '@remit/contract';
import { csrfTokenMatches, RemitError, resumeSession, type Ctx } from '@remit/core';
import { isLoopbackAddress, LOOPBACK_NAMES } from '../../plugins/host-guard.js';

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
 * PUT and DELETE) is one of the server's own, or, without one, `Sec-Fetch-Site` says same-origin.
 * A client that sends neither (curl) is not a browser another site can drive.
 */
export function assertSameOrigin(req: FastifyRequest, publicUrl: string): void {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (!ownOrigins(req, publicUrl).has(origin)) throw rejected('origin');
    return;
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') throw rejected('sec-fetch-site');
}

/**
 * The origins this server is reached at: the configured PUBLIC_URL and the address it listens on
 * (on loopback, every loopback name). Never the request's `Host`, which the sender writes: a page
 * of a name rebound to this server's address would pass a Host comparison.
 */
function ownOrigins(req: FastifyRequest, publicUrl: string): Set<string> {
  const out = new Set<string>();
  const add = (url: string) => {
    try {
      out.add(new URL(url).origin);
    } catch {
      /* a bad PUBLIC_URL adds nothing */
    }
  };
  add(publicUrl);
  const bound = req.server.server.address();
  if (bound && typeof bound === 'object') {
    const host = isIPv6(bound.address) ? `[${bound.address}]` : bound.address;
    // An unspecified address (0.0.0.0, ::) is no origin a browser shows: PUBLIC_URL names the server then.
    if (isLoopbackAddress(bound.address)) for (const name of LOOPBACK_NAMES) add(`http://${name}:${bound.port}`);
    if (host !== '0.0.0.0' && host !== '[::]') add(`http://${host}:${bound.port}`);
  }
  return out;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every change under /portal (credentials, the sign-in, every signed-in call, and any route added
 * later) passes the same-origin check: one hook, on the route matched (not the raw path, which
 * percent-encoding could disguise), before the route's own checks and before the body is read.
 */
export function guardPortalChanges(app: FastifyInstance, ctx: Ctx) {
  app.addHook('onRequest', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (SAFE.has(req.method) || !req.routeOptions.url?.startsWith('/portal')) return done();
    try {
      assertSameOrigin(req, ctx.publicUrl);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}

/** The onRequest hook of signed-in portal calls: a live session, and for changes the CSRF token (the origin was checked by guardPortalChanges). */
export function requireSession(ctx: Ctx) {
  return async (req: FastifyRequest) => {
    const token = sessionToken(req);
    const { clientId } = await resumeSession(ctx, token);
    if (!SAFE.has(req.method) && !csrfTokenMatches(token!, req.headers[PORTAL_CSRF_HEADER]))
      throw rejected('csrf-token');
    req.portalClientId = clientId;
  };
}
