import type { Env } from '../environment.js';

/**
 * Who may frame a link's pay page: the merchant's allowed origins (widget settings) and the link's
 * own embedding origin; with none set, any origin in sandbox (`['*']`), so a developer can try the
 * pay modal anywhere, and in production only the link's embedding origin, else no one (`[]`). The
 * page's `frame-ancestors` is this list, and the view carries it for the warm pay frame, which
 * renders a link only under an origin of it.
 */
export function framingOrigins(env: Env, allowedOrigins: string[], embedOrigin: string | null): string[] {
  const origins = new Set(allowedOrigins);
  if (origins.size === 0 && env === 'sandbox') return ['*'];
  if (embedOrigin) origins.add(embedOrigin);
  return [...origins];
}
