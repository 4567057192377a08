import type { Locale } from '@remit/contract/locales';
import { formatAmount, type Cents } from '../money.js';
import { htmlLang, mailMessages, mailMoney } from './locales/index.js';

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
  /** The customer's language (English when not given). */
  locale?: Locale;
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

/** Escapes a sentence for HTML, with the business's name in it in bold. */
export const withBusiness = (sentence: string, business: string) =>
  escapeHtml(sentence).replace(escapeHtml(business), `<strong>${escapeHtml(business)}</strong>`);

/** The SMS body: who asks, how much, for what, and the link. */
export function paymentRequestSms(m: PaymentRequestMessage): string {
  const t = mailMessages(m.locale);
  const greeting = m.customerName ? t.smsHi(oneLine(m.customerName)) : '';
  const forWhat = m.description ? clip(oneLine(m.description), SMS_DESCRIPTION_MAX) : undefined;
  return `${greeting}${t.requestSms(oneLine(m.businessName), amountText(m), !!m.preauth, forWhat, m.link)}`;
}

/** "$12.50" in English (as every message before languages), Intl's form for the locale otherwise. */
const amountText = (m: { amountCents: Cents; locale?: Locale }) =>
  !m.locale || m.locale === 'en' ? formatDollars(m.amountCents) : mailMoney(m.amountCents, m.locale);

/** The email: subject, a plain-text part and an HTML part with the same content. */
export function paymentRequestEmail(m: PaymentRequestMessage): EmailContent {
  const t = mailMessages(m.locale);
  const business = oneLine(m.businessName);
  const amount = amountText(m);
  const preauth = !!m.preauth;
  const subject = t.requestSubject(business, amount, preauth);
  const greeting = m.customerName ? t.hi(oneLine(m.customerName)) : t.hello;
  const details: Array<[string, string]> = [[t.amount, amount]];
  if (m.description) details.push([t.for, m.description.trim()]);
  if (m.orderId) details.push([t.order, m.orderId]);
  const requested = t.requested(business, amount, preauth);

  const text = [
    greeting,
    '',
    requested,
    '',
    ...details.map(([k, v]) => `${k}: ${v}`),
    '',
    t.secureHere(preauth),
    m.link,
    '',
    t.notExpecting,
    '',
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html ${htmlLang(m.locale ?? 'en')}>
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${e(greeting)}</p>
<p>${withBusiness(requested, business)}</p>
<table role="presentation" style="border-collapse:collapse">
${details.map(([k, v]) => `<tr><td style="padding:2px 12px 2px 0;padding-inline:0 12px;color:#555">${e(k)}</td><td style="padding:2px 0">${e(v)}</td></tr>`).join('\n')}
</table>
<p><a href="${e(m.link)}" style="display:inline-block;padding:10px 18px;background:#1a56db;color:#fff;text-decoration:none;border-radius:6px">${e(t.button(amount, preauth))}</a></p>
<p style="font-size:13px;color:#555">${e(t.orOpen)} <a href="${e(m.link)}">${e(m.link)}</a></p>
<p style="font-size:13px;color:#555">${e(t.notExpecting)}</p>
</body>
</html>
`;
  return { subject: subject, text, html };
}
