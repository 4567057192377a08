import type { RequestResult, WidgetRequestResult } from '@remit/contract';
import { render } from 'preact';
import type { Call } from './api.js';
import { Modal } from './dialog.js';
import { money } from './format.js';
import { shadowHost } from './styles.js';

/** The request payment button's flow: send the SMS, then confirm it in a small dialog (resolves once sent). */
export async function request(call: Call, amount: string, phone: string, opener: Element | null): Promise<RequestResult> {
  const sent = await call<WidgetRequestResult>('/payment-requests', { amount, phone_number: phone });
  const { host, root } = shadowHost('request');
  const close = () => {
    render(null, root);
    host.remove();
    (opener as HTMLElement | null)?.focus?.();
  };
  render(
    <Modal class="box" label="Payment request sent" labelledBy="remit-sent" onClose={close}>
      <h2 id="remit-sent">Payment request sent</h2>
      <p>
        A text message with a link to pay {money(sent.amount)} was sent to the phone number ending in {sent.phone_last_four}.
      </p>
      <button type="button" class="go" autofocus onClick={close}>
        Done
      </button>
    </Modal>,
    root,
  );
  return sent;
}
