import { formatAmount, type Cents } from '../money.js';

/** What a payment request message says. Pure data in, text out: no database, no clock. */
export interface PaymentRequestMessage {
  businessName: string;
  /** What the customer pays, in cents. */
  amountCents: Cents;
  link: string;
  orderId?: string;
  customerName?: string;
  description?: string;
  /** A preauthorization asks the customer to authorize, not to pay now. */
  preauth?: boolean;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** 1250 → "$12.50"; 123456789 → "$1,234,567.89". */
export function formatDollars(cents: Cents): string {
  const [whole, frac] = formatAmount(Math.abs(cents)).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${cents < 0 ? '-' : ''}$${grouped}.${frac}`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** SMS keeps to a couple of segments: long descriptions are cut. */
const SMS_DESCRIPTION_MAX = 80;

/** Collapses whitespace so a name or description cannot break the message layout. */
export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

const ask = (m: PaymentRequestMessage) =>
  m.preauth ? `an authorization of ${formatDollars(m.amountCents)}` : `a payment of ${formatDollars(m.amountCents)}`;

/** The SMS body: who asks, how much, for what, and the link. */
export function paymentRequestSms(m: PaymentRequestMessage): string {
  const greeting = m.customerName ? `Hi ${oneLine(m.customerName)}, ` : '';
  const forWhat = m.description ? ` for ${clip(oneLine(m.description), SMS_DESCRIPTION_MAX)}` : '';
  const action = m.preauth ? 'Authorize' : 'Pay';
  return `${greeting}${oneLine(m.businessName)} requests ${ask(m)}${forWhat}. ${action} securely: ${m.link}`;
}

/** The email: subject, a plain-text part and an HTML part with the same content. */
export function paymentRequestEmail(m: PaymentRequestMessage): EmailContent {
  const business = oneLine(m.businessName);
  const amount = formatDollars(m.amountCents);
  const action = m.preauth ? 'Authorize' : 'Pay';
  const subject = m.preauth
    ? `Authorization request from ${business}: ${amount}`
    : `Payment request from ${business}: ${amount}`;
  const greeting = m.customerName ? `Hi ${oneLine(m.customerName)},` : 'Hello,';
  const details: Array<[string, string]> = [['Amount', amount]];
  if (m.description) details.push(['For', m.description.trim()]);
  if (m.orderId) details.push(['Order', m.orderId]);
  const closing = 'If you were not expecting this request, you can ignore this email.';

  const text = [
    greeting,
    '',
    `${business} has requested ${ask(m)}.`,
    '',
    ...details.map(([k, v]) => `${k}: ${v}`),
    '',
    `${action} securely here:`,
    m.link,
    '',
    closing,
    '',
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${e(greeting)}</p>
<p><strong>${e(business)}</strong> has requested ${e(ask(m))}.</p>
<table role="presentation" style="border-collapse:collapse">
${details.map(([k, v]) => `<tr><td style="padding:2px 12px 2px 0;color:#555">${e(k)}</td><td style="padding:2px 0">${e(v)}</td></tr>`).join('\n')}
</table>
<p><a href="${e(m.link)}" style="display:inline-block;padding:10px 18px;background:#1a56db;color:#fff;text-decoration:none;border-radius:6px">${action} ${e(amount)}</a></p>
<p style="font-size:13px;color:#555">Or open this link: <a href="${e(m.link)}">${e(m.link)}</a></p>
<p style="font-size:13px;color:#555">${e(closing)}</p>
</body>
</html>
`;
  return { subject: subject, text, html };
}
