import type { FastifyReply } from 'fastify';

/**
 * `/pay/preload`: an empty page that fetches the pay page's scripts (and any stylesheet the server
 * did not inline). The widget loads it in a hidden frame when a customer shows intent to pay
 * (pointer or focus on a button), so the browser has started the Remit frame's process and holds
 * its assets in the cache partition of the merchant's page (top-level site + Remit) by the time
 * the pay link's frame opens. It carries nothing (no state, no script runs, no text), which is why
 * any page may frame it.
 */
export function preloadPage(template: string): string {
  const scripts = [...template.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
  const styles = [...template.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]!);
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Remit</title>',
    ...scripts.map((src) => `<link rel="modulepreload" crossorigin href="${src}">`),
    ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
    '</head><body></body></html>',
  ].join('');
}

/** Its answer names the current build's hashed assets: cached briefly, so a new build is seen soon. */
export function setPreloadHeaders(reply: FastifyReply): FastifyReply {
  reply.raw.removeHeader('x-frame-options');
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *",
    )
    .header('cache-control', 'public, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}
