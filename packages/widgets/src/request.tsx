import type { RequestResult, WidgetRequestResult } from '@remit/contract';
import { normalizePhone } from '@remit/contract/card-rules';
import { render } from 'preact';
import { widgetError, type Call } from './api.js';
import { Modal } from './dialog.js';
import { money } from './format.js';
import { t } from './i18n.js';
import { shadowHost } from './styles.js';

/**
 * The request payment button's flow: send the SMS, then confirm it in a small dialog (resolves once
 * sent). The phone is checked first with the server's rule; errors name `recipient_phone`, the
 * parameter of `sendRequestPayment` the caller passed, not the widget API's `phone_number`.
 */
export async function request(
  call: Call,
  amount: string,
  phone: string,
  opener: Element | null,
  language?: Promise<unknown> | null,
): Promise<RequestResult> {
  if (typeof phone !== 'string' || !normalizePhone(phone))
    throw widgetError(
      'invalid_phone',
      `recipient_phone must be a 10-digit US number or E.164 like +14155550100 (got ${JSON.stringify(phone)})`,
    );
  const sent = await call<WidgetRequestResult>('/payment-requests', { amount, phone_number: phone.trim() }).catch(
    (e: Error) => {
      e.message = e.message.replace(/\bphone_number\b/g, 'recipient_phone');
      throw e;
    },
  );
  await language;
  const { host, root } = shadowHost('request');
  const close = () => {
    render(null, root);
    host.remove();
    (opener as HTMLElement | null)?.focus?.();
  };
  render(
    <Modal class="box" label={t('sent')} labelledBy="remit-sent" onClose={close}>
      <h2 id="remit-sent">{t('sent')}</h2>
      <p>{t('sentText', money(sent.amount), sent.phone_last_four)}</p>
      <button type="button" class="go" autofocus onClick={close}>
        {t('done')}
      </button>
    </Modal>,
    root,
  );
  return sent;
}
