import type { FastifyReply } from 'fastify';
import { payPageCsp } from './headers.js';

/**
 * `/pay/preload`: the warm pay frame, a shell of the pay page. The widget loads it in a hidden
 * frame when a customer shows intent to pay (pointer or focus on a button), so the browser has
 * started the Remit frame's process, holds the page's assets in the cache partition of the
 * merchant's page, and has run the page's script, by the time the pay button is clicked. It is the
 * built page with no state and nothing rendered (`#app` marked `data-shell`): its script waits for
 * the one message it understands, `{type:'remit:open', link_id}` from its parent, fetches that
 * link's view and renders it only if the parent's origin may frame that link (the view's
 * `frame_ancestors`); else it navigates itself to `/pay/{link_id}`, where the browser applies the
 * link's own `frame-ancestors`. Carrying nothing of any link, any page may frame it.
 */
export function preloadPage(template: string): string {
  return template
    .replace('<!--remit-state-->', '')
    .replace('<!--remit-app-->', '')
    .replace('<div id="app">', '<div id="app" data-shell>');
}

/** Its answer names the current build's hashed assets: cached briefly, so a new build is seen soon. */
export function setPreloadHeaders(reply: FastifyReply, styleHashes: string[]): FastifyReply {
  reply.raw.removeHeader('x-frame-options');
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      payPageCsp({ env: 'sandbox', allowedOrigins: [], embedOrigin: null, styleHashes }, '*'),
    )
    .header('cache-control', 'public, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}
