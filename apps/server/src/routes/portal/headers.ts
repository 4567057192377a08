import type { FastifyReply } from 'fastify';

export { setApiHeaders } from '../pay/headers.js';

/**
 * The portal page's CSP: scripts and styles from this origin only (no inline script or style
 * attribute), calls to itself, frames only of its own (the sandboxed email previews), and no one
 * may frame the portal.
 */
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The portal's HTML (and its 404 page): never cached, never framed, no Referer. */
export function setPortalPageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PORTAL_CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}
