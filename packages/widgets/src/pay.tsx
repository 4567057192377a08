import type { PaymentResult, WidgetPayLink } from '@remit/contract';
import { render } from 'preact';
import type { Call } from './api.js';
import { Modal } from './dialog.js';
import { money } from './format.js';
import { shadowHost } from './styles.js';

/**
 * The pay button's flow: open a pay link for the amount (the backend records this page's origin
 * on it), show the hosted pay page in a modal iframe (or in the popup the loader opened on a
 * narrow screen), and settle on the page's `remit:payment` message from the pay page's origin:
 * `succeeded` resolves with the transaction, `closed` (or the modal closed) resolves `closed`.
 * `failed` settles nothing: the customer can try another card in the page.
 */
export async function pay(
  call: Call,
  amount: string,
  opener: Element | null,
  popup: Window | null,
  primary: () => string | null,
): Promise<PaymentResult> {
  const link = await call<WidgetPayLink>('/pay-links', { amount });
  const from = new URL(link.pay_link).origin;
  return new Promise<PaymentResult>((resolve) => {
    let frame: HTMLIFrameElement | null = null;
    let host: HTMLElement | null = null;
    let poll = 0;
    const finish = (r: PaymentResult) => {
      removeEventListener('message', onMessage);
      clearInterval(poll);
      if (host) {
        render(null, host.shadowRoot!);
        host.remove();
        (opener as HTMLElement | null)?.focus?.();
      }
      if (popup && !popup.closed) popup.close();
      resolve(r);
    };
    const closed = () => finish({ status: 'closed', transaction_id: null });
    const onMessage = (e: MessageEvent) => {
      const source = popup ?? frame?.contentWindow;
      const m = e.data as { type?: string; status?: string; transaction_id?: string } | null;
      if (e.origin !== from || !source || e.source !== source || m?.type !== 'remit:payment') return;
      if (m.status === 'succeeded' && m.transaction_id) finish({ status: 'succeeded', transaction_id: m.transaction_id });
      else if (m.status === 'closed') closed();
    };
    addEventListener('message', onMessage);

    if (popup) {
      popup.location.href = link.pay_link;
      poll = window.setInterval(() => popup.closed && closed(), 400);
      return;
    }
    const shadow = shadowHost('pay', primary());
    host = shadow.host;
    const label = `Pay ${money(link.amount)}`;
    render(
      <Modal class="pay" label={label} onClose={closed}>
        <div class="bar">
          <span>{label}</span>
          <button type="button" class="x" aria-label="Close payment" onClick={closed}>
            ×
          </button>
        </div>
        <iframe
          ref={(el) => {
            frame = el;
          }}
          src={link.pay_link}
          title={`Payment form: ${label}`}
          allow="payment"
          // The form takes focus as soon as it is there: the customer can type at once.
          onLoad={(e) => (e.currentTarget as HTMLIFrameElement).focus()}
        />
      </Modal>,
      shadow.root,
    );
  });
}
