import type { Locale } from '@remit/contract/locales';
import type { Cents } from '../money.js';
import { htmlLang, mailDate, mailMessages, mailMoney } from './locales/index.js';
import { escapeHtml, formatDollars, oneLine, withBusiness, type EmailContent } from './templates.js';

/** What a pay-page receipt email says. Pure data in, text out. */
export interface ReceiptMessage {
  businessName: string;
  amountCents: Cents;
  /** succeeded, authorized (a hold, not a charge yet) or pending (an ACH debit awaiting the bank). */
  status: 'succeeded' | 'authorized' | 'pending';
  brand: string;
  lastFour: string;
  authCode: string;
  transactionId: string;
  orderId: string;
  invoiceNumber: string | null;
  /** ISO 8601 UTC. */
  date: string;
  customerName?: string | null;
  /** The language the customer paid in (English when not given). */
  locale?: Locale;
}

/** The receipt sent when a payment request with an email is paid on the pay page. */
export function receiptEmail(m: ReceiptMessage): EmailContent {
  const l = m.locale ?? 'en';
  const t = mailMessages(l);
  const business = oneLine(m.businessName);
  // English keeps the forms it always had ("$12.50", "2026-03-05 15:04 UTC").
  const amount = l === 'en' ? formatDollars(m.amountCents) : mailMoney(m.amountCents, l);
  const what = t.receiptWhat(m.status, amount, business);
  const subject = t.receiptSubject(business, amount, m.status === 'authorized');
  const rows: Array<[string, string]> = [
    [t.amount, amount],
    [m.brand === 'ACH' ? t.bankAccount : t.card, t.endingIn(m.brand, m.lastFour)],
  ];
  if (m.authCode) rows.push([t.authCode, m.authCode]);
  rows.push([t.transaction, m.transactionId], [t.order, m.orderId]);
  if (m.invoiceNumber) rows.push([t.invoice, m.invoiceNumber]);
  rows.push([t.date, l === 'en' ? `${m.date.slice(0, 16).replace('T', ' ')} UTC` : mailDate(m.date, l)]);
  const greeting = m.customerName ? t.hi(oneLine(m.customerName)) : t.hello;
  const text = [greeting, '', what, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', t.keep, ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html ${htmlLang(l)}>
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${e(greeting)}</p>
<p>${withBusiness(what, business)}</p>
<table role="presentation" style="border-collapse:collapse">
${rows.map(([k, v]) => `<tr><td style="padding:2px 12px 2px 0;padding-inline:0 12px;color:#555">${e(k)}</td><td style="padding:2px 0">${e(v)}</td></tr>`).join('\n')}
</table>
<p style="font-size:13px;color:#555">${e(t.keep)}</p>
</body>
</html>
`;
  return { subject, text, html };
}
