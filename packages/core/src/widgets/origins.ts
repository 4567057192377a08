import { z } from 'zod';

/**
 * Exact web origins (`scheme://host[:port]`, nothing after): what `postMessage` targets and
 * `frame-ancestors` compare against. No path, query, user info or trailing slash, so a value
 * means one origin and only that one.
 */
export const ORIGIN_RULE = 'must be an exact origin scheme://host[:port] (http or https, no path or trailing slash)';

/** The origin itself when `value` is exactly one (lower-cased scheme and host), else null. */
export function exactOrigin(value: string): string | null {
  if (value.length > 300 || !/^https?:\/\/[^/?#@\s]+$/i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.origin === 'null' ? null : url.origin;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** http is only for a developer's own machine, and only in sandbox. */
export const isLocalOrigin = (origin: string) => LOCAL_HOSTS.has(new URL(origin).hostname);

/** An exact origin, as a zod field. */
export const originField = () =>
  z.string().trim().transform((v, ctx) => {
    const origin = exactOrigin(v);
    if (!origin) {
      ctx.addIssue({ code: 'custom', message: ORIGIN_RULE });
      return z.NEVER;
    }
    return origin;
  });
