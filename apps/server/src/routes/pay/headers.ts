import type { FastifyReply } from 'fastify';
import { framingOrigins, type Env } from '@remit/core';

/**
 * The pay page's security headers, in one place. Set on the reply by the pay routes themselves,
 * so they apply on top of any app-wide defaults (helmet's) registered for every route.
 */

export interface Framing {
  env: Env;
  /** The merchant's allowed origins (widget settings). */
  allowedOrigins: string[];
  /** The origin recorded on the link, if any. */
  embedOrigin: string | null;
  /**
   * `'sha256-…'` sources of the page's own `<style>` elements (the built stylesheet, inlined by the
   * server): those exact texts and nothing else, never a style attribute.
   */
  styleHashes?: string[];
  /** The view's Stripe.js address (`card_entry.js_url`) when Stripe's fields take the card; else none. */
  stripeJsUrl?: string | null;
}

/**
 * The sources Stripe.js needs beside the page's own: its origin for its script, its frames (the
 * Payment Element, 3-D Secure) and its calls. Stripe's own Stripe.js also calls its API and shows
 * 3-D Secure from its hooks host, as Stripe's CSP guide lists; a stand-in (tests) serves all from
 * its one origin. An address that does not parse adds nothing (the fields then do not load).
 */
export function stripeSources(jsUrl: string | null | undefined): {
  script: string[];
  frame: string[];
  connect: string[];
} {
  let origin: string;
  try {
    origin = new URL(jsUrl ?? '').origin;
  } catch {
    return { script: [], frame: [], connect: [] };
  }
  if (origin === 'null') return { script: [], frame: [], connect: [] };
  if (origin !== 'https://js.stripe.com') return { script: [origin], frame: [origin], connect: [origin] };
  return { script: [origin], frame: [origin, 'https://hooks.stripe.com'], connect: [origin, 'https://api.stripe.com'] };
}

/**
 * Who may frame the page: the merchant's allowed origins (and the link's own embedding origin).
 * With none set, any origin in sandbox, so a developer can try the pay modal anywhere; in
 * production only the link's embedding origin, else no one (`framingOrigins`, which the link
 * view also carries for the warm pay frame).
 */
export function frameAncestors({ env, allowedOrigins, embedOrigin }: Framing): string {
  const origins = framingOrigins(env, allowedOrigins, embedOrigin);
  return origins.length ? origins.join(' ') : "'none'";
}

/**
 * Scripts and styles from the server's own origin only (no inline script or style attribute;
 * the page's own `<style>` by its hash), images also from https (merchant logos) and data: URIs,
 * calls and form posts to itself; with Stripe's fields, Stripe.js's origin for scripts, frames
 * and calls too, nothing more (`stripeSources`).
 */
export function payPageCsp(framing: Framing, ancestors = frameAncestors(framing)): string {
  const stripe = stripeSources(framing.stripeJsUrl);
  const self = (directive: string, more: string[]) => [directive, "'self'", ...more].join(' ');
  return [
    "default-src 'none'",
    self('script-src', stripe.script),
    ["style-src 'self'", ...(framing.styleHashes ?? []).map((h) => `'${h}'`)].join(' '),
    "img-src 'self' data: https:",
    "font-src 'self'",
    self('connect-src', stripe.connect),
    ...(stripe.frame.length ? [self('frame-src', stripe.frame)] : []),
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
}

/**
 * HTML of the pay and add-card pages: never cached (it carries the link's state). Framing is
 * decided by `frame-ancestors` alone, so an app-wide `X-Frame-Options` is dropped, and the page
 * keeps its opener (`Cross-Origin-Opener-Policy: unsafe-none`): in a popup it posts its result
 * to the merchant's window.
 */
export function setPageHeaders(reply: FastifyReply, framing: Framing): FastifyReply {
  // Headers set by app-wide middleware (helmet) live on the raw response; ours are merged over them.
  reply.raw.removeHeader('x-frame-options');
  return reply
    .header('cross-origin-opener-policy', 'unsafe-none')
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', payPageCsp(framing))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store');
}

/** `/pay/api/*` answers: never cached, never sniffed, never leaking the link id in a Referer. */
export function setApiHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

/** Built assets have content hashes in their names: cache them for a year. */
export function setAssetHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-origin');
}
