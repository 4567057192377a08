import type { Cents } from '../money.js';
import { escapeHtml, formatDollars, oneLine, type EmailContent } from './templates.js';

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
}


/** The receipt sent when a payment request with an email is paid on the pay page. */
export function receiptEmail(m: ReceiptMessage): EmailContent {
  const business = oneLine(m.businessName);
  const amount = formatDollars(m.amountCents);
  const what =
    m.status === 'authorized'
      ? `You authorized ${amount} to ${business}. The amount is held on your card, not charged yet.`
      : m.status === 'pending'
        ? `Your bank payment of ${amount} to ${business} was submitted; it completes when your bank approves the debit.`
        : `You paid ${amount} to ${business}.`;
  const subject = `${m.status === 'authorized' ? 'Authorization' : 'Receipt'} from ${business}: ${amount}`;
  const rows: Array<[string, string]> = [
    ['Amount', amount],
    [m.brand === 'ACH' ? 'Bank account' : 'Card', `${m.brand} ending ${m.lastFour}`],
  ];
  if (m.authCode) rows.push(['Authorization code', m.authCode]);
  rows.push(['Transaction', m.transactionId], ['Order', m.orderId]);
  if (m.invoiceNumber) rows.push(['Invoice', m.invoiceNumber]);
  rows.push(['Date', `${m.date.slice(0, 16).replace('T', ' ')} UTC`]);
  const greeting = m.customerName ? `Hi ${oneLine(m.customerName)},` : 'Hello,';
  const text = [greeting, '', what, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', 'Keep this email for your records.', ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${e(greeting)}</p>
<p>${e(what)}</p>
<table role="presentation" style="border-collapse:collapse">
${rows.map(([k, v]) => `<tr><td style="padding:2px 12px 2px 0;color:#555">${e(k)}</td><td style="padding:2px 0">${e(v)}</td></tr>`).join('\n')}
</table>
<p style="font-size:13px;color:#555">Keep this email for your records.</p>
</body>
</html>
`;
  return { subject, text, html };
}
