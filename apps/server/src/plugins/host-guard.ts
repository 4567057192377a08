import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackHost, RemitError, type Ctx } from '@remit/core';

/**
 * DNS rebinding: a page on an attacker's name that resolves to 127.0.0.1 talks to a server on
 * loopback as if it were its own origin, and reads the answers. So a server that listens only on
 * loopback answers only to the names it is really reached by: the host of PUBLIC_URL and the
 * loopback names (`localhost`, `127.0.0.1`, `[::1]`), with any port. Every other `Host` (or none)
 * gets 421 `misdirected_request` on every route. A server listening on other addresses is reached
 * under names this one cannot know (a LAN address, a proxy's name), and is not checked here.
 */

/** An IP address (not a name) on loopback, by core's one loopback rule (mapped addresses too). */
export function isLoopbackAddress(address: string): boolean {
  return isIP(address) !== 0 && isLoopbackHost(address);
}

/** Whether every address the server listens on is a loopback address (false before it listens). */
export function listensOnLoopbackOnly(app: FastifyInstance): boolean {
  const bound = app.server.listening ? app.addresses() : [];
  return bound.length > 0 && bound.every((a) => typeof a === 'object' && isLoopbackAddress(a.address));
}

export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The host name a `Host` header names (lowercase, IPv6 in brackets, no port), or null when it names none. */
export function hostNameOf(header: string | undefined): string | null {
  if (!header) return null;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return null;
  }
  // `a@127.0.0.1`, `127.0.0.1/x`: not a host, whatever part of it looks like one.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || header.includes('/'))
    return null;
  return url.hostname;
}

function publicHostName(publicUrl: string): string | null {
  try {
    return new URL(publicUrl).hostname;
  } catch {
    return null;
  }
}

export function registerHostGuard(app: FastifyInstance, ctx: Ctx) {
  // Known once the server listens; the harness sets PUBLIC_URL after listening, so it is read per request.
  let loopbackOnly: boolean | undefined;
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    loopbackOnly ??= app.server.listening ? listensOnLoopbackOnly(app) : undefined;
    if (!loopbackOnly) return done();
    const name = hostNameOf(req.headers.host);
    const own =
      name !== null && ((LOOPBACK_NAMES as readonly string[]).includes(name) || name === publicHostName(ctx.publicUrl));
    done(own ? undefined : new RemitError('misdirected_request'));
  });
}
