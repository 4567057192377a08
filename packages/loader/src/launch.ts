import type { PayOptions, RemitWidgets } from '@remit/contract';
import type { BootWidgets, WidgetUI } from './ui.js';

/**
 * `dynamic-launch.js`: the script tag a merchant pastes. It reads the public key from its own
 * address, defines `getPaymentPage`, `sendRequestPayment` and `window.Remit`, fills
 * `#remit_complete_transactions` whenever one is on the page, and loads the widget chunk (with its
 * own script tag's nonce) only when a widget is used or about to be (pointer or focus on a button). Loaded twice, the second copy does nothing.
 * Kept tiny (budget 1.3 KB gzip): the work is in the chunk.
 */
declare const __REMIT_CHUNK__: string;
/** The chunk's `sha384-…` integrity: the page's pin on the loader reaches the chunk it adds. */
declare const __REMIT_CHUNK_SRI__: string;

type Win = Window & {
  Remit?: RemitWidgets;
  __remitUI?: (boot: BootWidgets) => void;
  getPaymentPage?: RemitWidgets['getPaymentPage'];
  sendRequestPayment?: RemitWidgets['sendRequestPayment'];
};
type Failure = Error & { code: string };

((w: Win, d: Document) => {
  if (w.Remit) return;
  const me = (d.currentScript || d.querySelector('script[src*="/js/dynamic-launch"]')) as HTMLScriptElement | null;
  const src = new URL(me?.src || '/', location.href);
  const key = src.searchParams.get('remit_merchant_public_key') || '';
  const emit = (type: string, detail: unknown) => d.dispatchEvent(new CustomEvent('remit:' + type, { detail }));
  const fail = (code: string, message: string) => {
    console.error('Remit: ' + message);
    emit('error', { code, message });
    return Promise.reject(Object.assign(new Error(message), { code }));
  };
  const badKey = /^pk_\w{4,}$/.test(key)
    ? ''
    : `the script address needs ?remit_merchant_public_key=pk_… (got "${key}")`;
  if (badKey) console.error('Remit: ' + badKey);

  let ui: Promise<WidgetUI> | undefined;
  const load = () =>
    (ui ||= new Promise<WidgetUI>((ok, no) => {
      w.__remitUI = (boot) => ok(boot({ base: src.origin, key, locale: src.searchParams.get('locale') }));
      const s = d.createElement('script');
      s.src = src.origin + '/js/' + __REMIT_CHUNK__;
      s.nonce = me?.nonce || '';
      s.integrity = __REMIT_CHUNK_SRI__;
      s.crossOrigin = ''; // '' is anonymous: a CORS fetch without credentials, as integrity needs
      s.onerror = () => {
        ui = undefined;
        s.remove();
        no(Object.assign(new Error('could not load the widgets from ' + src.origin), { code: 'load_failed' }));
      };
      d.head.append(s);
    }));

  // Warmed on intent: the pointer or focus reaching a button fetches the chunk, so the click that
  // follows finds it ready (a page nobody points at never loads it).
  for (const t of ['pointerover', 'focusin'])
    d.addEventListener(
      t,
      (e) => badKey || ((e.target as Element).closest?.('button,[role=button],input') && load().catch(() => 0)),
      true,
    );

  /** Runs a widget operation; a failure is logged, dispatched as `remit:error` and rejected. */
  const run = <T>(op: (u: WidgetUI) => Promise<T>, undo?: () => void): Promise<T> =>
    badKey
      ? fail('invalid_key', badKey)
      : load()
          .then(op)
          .catch((e: Failure) => {
            undo?.();
            return fail(e.code || 'error', e.message);
          });

  const amountOf = (a: unknown) => {
    const t = typeof a === 'number' || typeof a === 'string' ? String(a).trim() : '';
    return /^\d{1,9}(\.\d{1,2})?$/.test(t) && +t > 0 ? t : '';
  };
  const badAmount = (a: unknown) =>
    fail(
      'invalid_amount',
      `amount must be a number above 0 with at most 2 decimals, like 12.50 (got ${JSON.stringify(a)})`,
    );

  const getPaymentPage = (amount: number | string, opts?: PayOptions) => {
    const a = amountOf(amount);
    if (!a) return badAmount(amount);
    const opener = d.activeElement;
    // Narrow screens get a popup, opened now while the click still lets us.
    const popup = !badKey && w.innerWidth < 600 ? w.open('', 'remit_pay', 'popup,width=440,height=760') : null;
    return run(
      (u) => u.pay(a, opener, popup, opts),
      () => popup?.close(),
    ).then((r) => (emit(r.status === 'succeeded' ? 'payment-success' : 'close', r), r));
  };

  const sendRequestPayment = (amount: number | string, phone: string) => {
    const a = amountOf(amount);
    if (!a) return badAmount(amount);
    // The phone is checked by the widget chunk, with the server's own rule (normalizePhone).
    const opener = d.activeElement;
    return run((u) => u.request(a, phone, opener));
  };

  const mountTransactions = (el: HTMLElement) => {
    let off: (() => void) | undefined;
    let gone = 0;
    if (!badKey)
      load().then(
        (u) => gone || (off = u.table(el)),
        (e: Error) => console.error('Remit: ' + e.message),
      );
    return () => {
      gone = 1;
      off?.();
    };
  };

  const seen = new WeakSet<Element>();
  const scan = () => {
    const t = d.getElementById('remit_complete_transactions');
    if (t && !seen.has(t)) {
      seen.add(t);
      mountTransactions(t);
    }
  };
  new MutationObserver(scan).observe(d.documentElement, { childList: true, subtree: true });
  scan();

  w.Remit = { getPaymentPage, sendRequestPayment, mountTransactions, publicKey: key };
  w.getPaymentPage = getPaymentPage;
  w.sendRequestPayment = sendRequestPayment;
  emit('ready', { public_key: key });
})(window, document);
