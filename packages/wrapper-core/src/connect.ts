import { loadRemit, type RemitWidgets } from '@remit/loader';
import type { RemitConnection, RemitWidgetError } from './types.js';

/** The loader, once per page: `loadRemit` remembers its promise, so every component shares one script. */
export function load(c: RemitConnection): Promise<RemitWidgets | null> {
  return loadRemit({
    publicKey: c.clientKey,
    baseUrl: c.baseUrl || location.origin,
    nonce: c.nonce,
    locale: c.locale,
    appearance: c.appearance,
  });
}

/** Anything thrown, as an Error for `onError`. */
export const toError = (e: unknown): RemitWidgetError => (e instanceof Error ? e : new Error(String(e)));

/** Where a button's outcome goes: the React props' `onSuccess`/`onClose`/`onError`, Vue's emits. */
export interface ButtonOutcome<R> {
  success(result: R): void;
  close(): void;
  error(error: RemitWidgetError): void;
}

/**
 * One click of a widget button: load Remit (already warm after mount), run `call`, then report a
 * success, a close (the loader resolves `{status: 'closed'}`), or an error.
 */
export function press<R>(c: RemitConnection, call: (remit: RemitWidgets) => Promise<R>, to: ButtonOutcome<R>): void {
  load(c)
    // `null` only without a window: a click never happens there, but say so if it does.
    .then((remit) => (remit ? call(remit) : Promise.reject(new Error('Remit widgets run in a browser only'))))
    .then(
      (result) => ((result as { status?: string } | null)?.status === 'closed' ? to.close() : to.success(result)),
      (error: unknown) => to.error(toError(error)),
    );
}
