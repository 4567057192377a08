import type { Receipt as ReceiptData } from '@remit/contract';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { formatDate, formatMoney } from './format.js';
import { intlLocale, t } from './i18n.js';

/** What was paid: printable (the print stylesheet keeps only this), focus on its heading when it appears. */
/** `ownOrder`: the order id is the merchant's (a link made without one shows none). */
export function Receipt({ receipt, ownOrder, focus }: { receipt: ReceiptData; ownOrder: boolean; focus?: boolean }) {
  const m = t();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (focus) heading.current?.focus();
  }, []);
  const title =
    receipt.status === 'authorized' ? m.authorizedTitle : receipt.status === 'pending' ? m.pendingTitle : m.paidTitle;
  const note = receipt.status === 'authorized' ? m.authorizedText : receipt.status === 'pending' ? m.pendingText : null;
  const rows: Array<[string, string]> = [
    [m.amount, formatMoney(receipt.amount, receipt.currency, intlLocale())],
    [m.paidWith, m.endingIn(receipt.brand, receipt.last_four)],
    [m.authCode, receipt.auth_code],
    [m.transactionId, receipt.transaction_id],
    [m.date, formatDate(receipt.date, intlLocale())],
  ];
  if (ownOrder) rows.push([m.order, receipt.order_id]);
  if (receipt.invoice_number) rows.push([m.invoice, receipt.invoice_number]);
  return (
    <section class="panel receipt" aria-labelledby="receipt-title">
      <div class="receipt__status" aria-hidden="true">
        ✓
      </div>
      <h2 id="receipt-title" tabIndex={-1} ref={heading}>
        {title}
      </h2>
      {note && <p>{note}</p>}
      <h3 class="receipt__merchant">
        {m.receipt} · {receipt.merchant_name}
      </h3>
      <dl class="details">
        {rows.map(([k, v]) => (
          <div class="details__row" key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {receipt.emailed_to && <p class="receipt__emailed">{m.emailed(receipt.emailed_to)}</p>}
      <button class="button button--secondary no-print" type="button" onClick={() => window.print()}>
        {m.print}
      </button>
    </section>
  );
}
