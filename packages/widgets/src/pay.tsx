import type { PaymentResult, PayOptions, WidgetPayLink } from '@remit/contract';
import { render } from 'preact';
import type { Call } from './api.js';
import { Modal } from './dialog.js';
import { money } from './format.js';
import { signal, use, type Signal } from './signal.js';
import { pageQuery, t } from './i18n.js';
import { shadowHost } from './styles.js';
import { takeWarmFrame } from './warm.js';
/**
 * The pay button's flow: open a pay link for the amount (the backend records this page's origin
 * on it) and show the hosted pay page in a modal iframe (or in the popup the loader opened on a
 * narrow screen). The modal opens at once, while the link is being made, so the click answers
 * within a frame and the iframe starts loading the moment the link is known. It settles on the
 * page's `remit:payment` message from the pay page's origin: `succeeded` resolves with the
 * transaction, `closed` (or the modal closed) resolves `closed`. `failed` settles nothing: the
 * customer can try another card in the page. With a warm pay frame on the page (warm.ts), that
 * frame is moved into the modal and given the link instead of a new frame navigating to it.
 * A success is confirmed first: the bar says so over the page's receipt for CONFIRM_MS (or until
 * the customer closes it), unless the merchant asked to close at once (`skip_confirmation`). On a
 * sandbox server the bar wears the "Test mode" mark.
 */
export async function pay(
  call: Call,
  amount: string,
  opener: Element | null,
  popup: Window | null,
  /** The page's own appearance (JSON): the pay page is asked for it too, and then no warm frame (it shows the settings'). */
  override?: string,
  /** The language still loading (null once there): the modal waits for it rather than show English first. */
  language?: Promise<unknown> | null,
  locale?: string | null,
  opts: PayOptions = {},
  /** A sandbox server (the widget settings' environment, once read). */
  sandbox: Promise<boolean> = Promise.resolve(false),
): Promise<PaymentResult> {
  const linked = call<WidgetPayLink>('/pay-links', opts.order_id ? { amount, order_id: opts.order_id } : { amount });
  if (language) {
    linked.catch(() => 0); // awaited below: a refusal while the language loads is not unhandled
    await language; // there already unless the click came first (its fetch then runs beside the pay link's)
  }
  const src = signal<string | null>(null);
  let frame: HTMLIFrameElement | null = null;
  let end: HTMLElement | null = null;
  let host: HTMLElement | null = null;
  let poll = 0;
  let from = '';
  let done = false;
  // A key or a click in the dialog before the form is ready: focus stays where the customer put it.
  let acted = false;
  const focusForm = (f: HTMLIFrameElement) => acted || f.focus();
  let settle!: (r: PaymentResult) => void;
  const settled = new Promise<PaymentResult>((ok) => (settle = ok));
  const teardown = () => {
    removeEventListener('message', onMessage);
    clearInterval(poll);
    if (host) {
      render(null, host.shadowRoot!);
      host.remove();
      host = null;
      (opener as HTMLElement | null)?.focus?.();
    }
    if (popup && !popup.closed) popup.close();
  };
  const finish = (r: PaymentResult) => {
    done = true;
    teardown();
    settle(r);
  };
  let paid: PaymentResult | null = null;
  // Closed during the confirmation, the payment is still the answer.
  const closed = () => finish(paid ?? { status: 'closed', transaction_id: null });
  const label = t('pay', money(amount));
  const head = signal(label);
  const test = signal(false);
  void sandbox.then((v) => (test.value = v));
  const onMessage = (e: MessageEvent) => {
    const source = popup ?? frame?.contentWindow;
    const m = e.data as { type?: string; status?: string; transaction_id?: string } | null;
    if (!from || e.origin !== from || !source || e.source !== source || m?.type !== 'remit:payment') return;
    if (m.status === 'succeeded' && m.transaction_id && !paid) {
      paid = { status: 'succeeded', transaction_id: m.transaction_id };
      if (opts.skip_confirmation) return closed();
      head.value = t('paid');
      setTimeout(closed, CONFIRM_MS);
    } else if (m.status === 'closed') closed();
  };
  addEventListener('message', onMessage);

  if (!popup) {
    const shadow = shadowHost('pay');
    host = shadow.host;
    for (const t of ['keydown', 'pointerdown']) host.addEventListener(t, () => (acted = true), true);
    // The guards at both ends keep Tab and Shift+Tab inside the dialog: leaving the pay page's
    // frame forward lands on the last guard (back to the close button), backward on the first
    // (back into the frame), instead of escaping to the browser's own controls.
    let x: HTMLButtonElement | null = null;
    const toX = () => x?.focus();
    render(
      <Modal class="pay" label={label} onClose={closed}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a focus guard of the dialog's trap, sending focus back inside */}
        <span class="guard" tabIndex={0} onFocus={() => (frame ? frame.focus() : toX())} />
        <div class="bar">
          <Head text={head} />
          <TestMark on={test} />
          <button
            type="button"
            class="x"
            aria-label={t('close')}
            autofocus
            ref={(el) => void (x = el)}
            onClick={closed}
          >
            ×
          </button>
        </div>
        <PayFrame label={label} src={src} frameRef={(el) => void (frame = el)} focus={focusForm} />
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/noStaticElementInteractions: a focus guard of the dialog's trap, sending focus back inside */}
        <span class="guard" tabIndex={0} onFocus={toX} ref={(el) => void (end = el)} />
      </Modal>,
      shadow.root,
    );
  }

  let link: WidgetPayLink;
  try {
    link = await linked;
  } catch (e) {
    if (done) return settled; // closed by the customer before the refusal came: that is the answer
    teardown();
    throw e;
  }
  if (done) return settled; // closed while the link was being made
  from = new URL(link.pay_link).origin;
  const url = link.pay_link + pageQuery(locale, override);
  const warm = popup || override ? null : takeWarmFrame();
  if (popup) {
    popup.location.href = url;
    poll = window.setInterval(() => popup.closed && closed(), 400);
  } else if (warm) {
    // Shown in the dialog at once (its process paints while the shell fetches the link), given
    // the link when its shell is ready; a shell not ready, or silent, in time is navigated to the link.
    const f = (frame = warm.frame);
    (end!.parentNode as Element & { moveBefore(n: Node, r: Node | null): void }).moveBefore(f, end);
    src.value = '';
    f.title = t('form', label);
    f.removeAttribute('tabindex');
    f.removeAttribute('aria-hidden');
    f.style.display = '';
    const ok = await Promise.race([warm.ready, new Promise((r) => setTimeout(r, WARM_WAIT_MS, false))]);
    if (done) return settled;
    focusForm(f); // once loaded (a frame focused while its document loads loses it): the customer can type at once
    // The shell is spoken to on the origin it was loaded from (the loader's host, which need not be
    // PUBLIC_URL's) and answers `remit:opened`; no answer in time, the frame goes to the link itself.
    const taken = ok && (await opened(f, warm.origin, link.link_id));
    if (done) return settled;
    if (taken) from = warm.origin;
    else f.src = url;
  } else src.value = url;
  return settled;
}

/** The sandbox's "Test mode" mark in the bar. */
function TestMark(props: { on: Signal<boolean> }) {
  return use(props.on) ? <span class="test">{t('testMode')}</span> : null;
}

/** How long a success is shown before the modal closes by itself. */
const CONFIRM_MS = 2500;

/** The bar's text: what is paid, then that it was. */
function Head(props: { text: Signal<string> }) {
  return (
    <span role="status" class="head">
      {use(props.text)}
    </span>
  );
}

/** How long the pay modal waits for a warm frame's shell before navigating that frame to the link. */
const WARM_WAIT_MS = 2000;
/** How long a shell has to answer `remit:open` before the frame is navigated to the link. */
const OPEN_WAIT_MS = 1000;

/** Posts the link to the shell in `f` on `origin`; true once the shell answers that it took it. */
function opened(f: HTMLIFrameElement, origin: string, linkId: string): Promise<boolean> {
  return new Promise((ok) => {
    const end = (r: boolean) => {
      removeEventListener('message', on);
      clearTimeout(timer);
      ok(r);
    };
    const on = (e: MessageEvent) =>
      e.source === f.contentWindow &&
      e.origin === origin &&
      (e.data as { type?: string } | null)?.type === 'remit:opened' &&
      end(true);
    const timer = setTimeout(end, OPEN_WAIT_MS, false);
    addEventListener('message', on);
    f.contentWindow!.postMessage({ type: 'remit:open', link_id: linkId }, origin);
  });
}

/** The wait text, then the frame of the link ('': the warm frame, moved in beside this). */
function PayFrame(props: {
  label: string;
  src: Signal<string | null>;
  frameRef: (el: HTMLIFrameElement | null) => void;
  focus: (f: HTMLIFrameElement) => void;
}) {
  const src = use(props.src);
  if (src === '') return null;
  if (!src)
    return (
      <p class="wait" role="status">
        {t('opening')}
      </p>
    );
  return (
    <iframe
      ref={props.frameRef}
      src={src}
      title={t('form', props.label)}
      allow="payment"
      // The form takes focus as soon as it is there: the customer can type at once.
      onLoad={(e) => props.focus(e.currentTarget as HTMLIFrameElement)}
    />
  );
}
