import type { RemitWidgets } from '@remit/contract';

export type { PaymentResult, RemitEventMap, RemitWidgetError, RemitWidgets, RequestResult } from '@remit/contract';

/**
 * `@remit/loader`: load `dynamic-launch.js` once per page and hand back its API, in the spirit of
 * stripe-js `pure.ts`. Importing this module does nothing; calling `loadRemit` adds (or reuses)
 * the one script tag. Resolves `null` on the server (no `window`). A failed load clears the
 * remembered promise, so calling again retries.
 *
 * @example
 * const remit = await loadRemit({ publicKey: 'pk_test_…', baseUrl: 'https://pay.example.com' });
 * const result = await remit?.getPaymentPage(12.5);
 */
export interface LoadRemitOptions {
  /** The merchant public key (`pk_…`). */
  publicKey: string;
  /** The Remit server, e.g. `https://remit.example.com`. Default: the page's origin. */
  baseUrl?: string;
  /** The CSP nonce to put on the script tag (the loader passes it on to the widget chunk). */
  nonce?: string;
  /** The customer's language, a BCP 47 tag (`fr`, `pt-BR`, `zh-Hans`, `ar`). Default: the browser's languages. */
  locale?: string;
}

export const SCRIPT_PATH = '/js/dynamic-launch.js';
export const KEY_PARAM = 'remit_merchant_public_key';

declare global {
  interface Window {
    Remit?: RemitWidgets;
  }
}

let pending: Promise<RemitWidgets | null> | null = null;

export function scriptUrl(opts: LoadRemitOptions, origin: string): string {
  const url = new URL(SCRIPT_PATH, opts.baseUrl || origin);
  url.searchParams.set(KEY_PARAM, opts.publicKey);
  if (opts.locale) url.searchParams.set('locale', opts.locale);
  return url.href;
}

function findScript(): HTMLScriptElement | null {
  for (const s of Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'))) {
    try {
      if (new URL(s.src).pathname === SCRIPT_PATH) return s;
    } catch {
      /* not a URL: not ours */
    }
  }
  return null;
}

export function loadRemit(opts: LoadRemitOptions): Promise<RemitWidgets | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null);
  if (pending) return pending;
  pending = new Promise<RemitWidgets | null>((resolve, reject) => {
    const ready = () => {
      const remit = window.Remit;
      if (!remit) return reject(new Error('Remit: dynamic-launch.js loaded but did not start (see the console)'));
      if (remit.publicKey !== opts.publicKey) {
        console.warn(`Remit: the page already loaded dynamic-launch.js for another key (${remit.publicKey}); using it`);
      }
      resolve(remit);
    };
    if (window.Remit) return ready();
    let script = findScript();
    if (!script) {
      script = document.createElement('script');
      script.src = scriptUrl(opts, window.location.origin);
      script.async = true;
      if (opts.nonce) script.nonce = opts.nonce;
      (document.head || document.body).appendChild(script);
    }
    script.addEventListener('load', ready);
    script.addEventListener('error', () => {
      script!.remove();
      reject(new Error(`Remit: could not load ${script!.src}`));
    });
  });
  pending.catch(() => {
    pending = null;
  });
  return pending;
}

/** Tests only: forget the remembered promise. */
export function resetLoadRemitForTests(): void {
  pending = null;
}
