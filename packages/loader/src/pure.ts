import type {
  Appearance,
  PaymentClosed,
  PaymentSucceeded,
  RemitErrorDetail,
  RemitEventMap,
  RemitReady,
  RemitWidgets,
} from '@remit/contract';

export type {
  Appearance,
  AppearanceVariables,
  PaymentClosed,
  PaymentResult,
  PaymentSucceeded,
  PayOptions,
  RemitErrorDetail,
  RemitEventMap,
  RemitReady,
  RemitWidgetError,
  RemitWidgets,
  RequestResult,
  Theme,
} from '@remit/contract';

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
  /**
   * This page's appearance, over the widget settings' (`{theme, variables}`, as in PUT /widgets/{id}).
   * Written on the script tag as `data-appearance`; one whose colours would not read is ignored
   * with a console warning. Read when the widgets first load: one appearance per page.
   */
  appearance?: Appearance;
  /** The loader ran: `window.Remit` is there (the `remit:ready` event). */
  onReady?: (detail: RemitReady) => void;
  /** The customer paid (`remit:payment-success`). */
  onSuccess?: (detail: PaymentSucceeded) => void;
  /** The customer closed the pay modal without paying (`remit:close`). */
  onClose?: (detail: PaymentClosed) => void;
  /** A widget call failed (`remit:error`). */
  onError?: (detail: RemitErrorDetail) => void;
}

export const SCRIPT_PATH = '/js/dynamic-launch.js';
export const KEY_PARAM = 'remit_merchant_public_key';

declare global {
  interface Window {
    Remit?: RemitWidgets;
  }
  // The loader's events on `document`, typed by their detail.
  interface DocumentEventMap extends RemitEventMap {}
}

/** Names of the loader's events without their `remit:` prefix. */
export type RemitEventName = keyof RemitEventMap extends `remit:${infer N}` ? N : never;
type Detail<N extends RemitEventName> = RemitEventMap[`remit:${N}`]['detail'];

/**
 * Calls `listener` with the detail of each `remit:<name>` event on `document`; returns a function
 * that stops it. Safe on the server (does nothing).
 *
 * @example
 * onRemit('payment-success', ({ transaction_id }) => showThanks(transaction_id));
 */
export function onRemit<N extends RemitEventName>(name: N, listener: (detail: Detail<N>) => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const on = (e: Event) => listener((e as CustomEvent<Detail<N>>).detail);
  document.addEventListener(`remit:${name}`, on);
  return () => document.removeEventListener(`remit:${name}`, on);
}

const CALLBACKS = { onSuccess: 'payment-success', onClose: 'close', onError: 'error' } as const;

let pending: Promise<RemitWidgets | null> | null = null;

export function scriptUrl(opts: LoadRemitOptions, origin: string): string {
  const url = new URL(SCRIPT_PATH, opts.baseUrl || origin);
  url.searchParams.set(KEY_PARAM, opts.publicKey);
  if (opts.locale) url.searchParams.set('locale', opts.locale);
  return url.href;
}

/** The loader's tag on the page: the plain address, or a release's own (`/js/dynamic-launch.<version>.js`, pinned). */
function findScript(): HTMLScriptElement | null {
  return document.querySelector<HTMLScriptElement>('script[src*="/js/dynamic-launch"]');
}

export function loadRemit(opts: LoadRemitOptions): Promise<RemitWidgets | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null);
  for (const [option, name] of Object.entries(CALLBACKS)) {
    const listener = opts[option as keyof typeof CALLBACKS];
    if (listener) onRemit(name, listener as (detail: unknown) => void);
  }
  // A tag already on the page takes this page's appearance too (the widgets read it when they first load).
  if (opts.appearance) findScript()?.setAttribute('data-appearance', JSON.stringify(opts.appearance));
  // Called once this loader is there, whether it ran before this call or after.
  if (opts.onReady)
    remembered(opts).then(
      (remit) => remit && opts.onReady!({ public_key: remit.publicKey }),
      () => {},
    );
  return remembered(opts);
}

function remembered(opts: LoadRemitOptions): Promise<RemitWidgets | null> {
  if (pending) return pending;
  pending = new Promise<RemitWidgets | null>((resolve, reject) => {
    const ready = () => {
      const remit = window.Remit;
      if (!remit) return reject(new Error('Remit: dynamic-launch.js did not start (see the console)'));
      if (remit.publicKey !== opts.publicKey) {
        console.warn(`Remit: dynamic-launch.js is loaded for key ${remit.publicKey}; using it`);
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
      if (opts.appearance) script.dataset.appearance = JSON.stringify(opts.appearance);
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
