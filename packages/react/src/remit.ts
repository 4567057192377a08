import { loadRemit, type RemitWidgets } from '@remit/loader';
import type { RemitConnection } from './types.js';

/** The loader, once per page: `loadRemit` remembers its promise, so every component shares one script. */
export function load(c: RemitConnection): Promise<RemitWidgets | null> {
  return loadRemit({ publicKey: c.clientKey, baseUrl: c.baseUrl || location.origin, nonce: c.nonce });
}

/** Anything thrown, as an Error for `onError`. */
export const toError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** The loader resolves `null` only without a window; a click never happens there, but say so if it does. */
export const browserOnly = () => Promise.reject(new Error('Remit widgets run in a browser only'));
