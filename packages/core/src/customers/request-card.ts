import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { payLinks } from '../db/schema.js';
import { invalid } from '../errors.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { queueMessage } from '../messages/outbox.js';
import {
  channelName,
  deliverable,
  deliveryNote,
  nothingSendable,
  unsentNote,
  type Channel,
} from '../messages/channels.js';
import { firstTries, type QueuedMessage } from '../messages/first-try.js';
import type { Locale } from '@remit/contract/locales';
import { htmlLang, mailMessages } from '../messages/locales/index.js';
import { escapeHtml, oneLine, withBusiness } from '../messages/templates.js';
import { findCustomer } from './customers.js';
import { customerLocale } from '../links/payment-requests.js';
import { inTransaction } from '../operation.js';

/** Address of the hosted add-card page; the token is the `card_request` pay link's id. */
export const addCardUrl = (ctx: Pick<Ctx, 'publicUrl'>, token: string) => `${ctx.publicUrl}/pay/card/${token}`;

/** Texts of the card request, in the customer's language (English when not given); pure so they can be read in tests. */
export function cardRequestTexts(m: { businessName: string; customerName: string; link: string; locale?: Locale }) {
  const t = mailMessages(m.locale);
  const business = oneLine(m.businessName);
  const name = oneLine(m.customerName);
  const sms = t.cardSms(name, business, m.link);
  const subject = t.cardSubject(business);
  const ask = t.cardAsk(business);
  const text = [t.hi(name), '', ask, '', t.addHere, m.link, '', t.notExpecting, ''].join('\n');
  const html = `<!doctype html>
<html ${htmlLang(m.locale ?? 'en')}><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;line-height:1.5">
<p>${escapeHtml(t.hi(name))}</p>
<p>${withBusiness(ask, business)}</p>
<p><a href="${escapeHtml(m.link)}">${escapeHtml(t.addButton)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(t.notExpecting)}</p>
</body></html>
`;
  return { sms, email: { subject, text, html } };
}

/**
 * `POST /customers/request-card/{customerId}`: a `card_request` pay link holds the token of the
 * hosted add-card page, and the link goes out by SMS and/or email in the same transaction.
 */
export async function requestCard(ctx: Ctx, merchant: Merchant, customerId: string, tag?: string) {
  const locale = customerLocale(tag);
  const customer = await findCustomer(ctx.db, merchant.id, customerId);
  if (!customer.email && !customer.phoneNumber) {
    throw invalid(
      'customer_unreachable',
      'The customer has no email or phone number to send the card request to; add one to the customer first.',
    );
  }
  const wanted: Channel[] = [
    ...(customer.phoneNumber ? ['sms' as const] : []),
    ...(customer.email ? ['email' as const] : []),
  ];
  const { send, unsent } = deliverable(ctx, wanted);
  if (send.length === 0) throw nothingSendable('card request', wanted);
  const at = merchantNow(ctx.now, merchant);
  const token = newId.payLink();
  const link = addCardUrl(ctx, token) + (locale ? `?locale=${locale}` : '');
  const customerName = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  const texts = cardRequestTexts({ businessName: merchant.businessname, customerName, link, locale });
  const queued: QueuedMessage[] = [];
  await inTransaction(ctx, async (tx, ctx) => {
    await tx.insert(payLinks).values({
      id: token,
      merchantId: merchant.id,
      kind: 'card_request',
      status: 'open',
      orderId: token,
      amountCents: 0,
      allowCard: true,
      allowAch: false,
      isRequestCard: true,
      customerName,
      email: customer.email,
      phoneNumber: customer.phoneNumber,
      customerId: customer.id,
      createdAt: at,
    });
    if (send.includes('sms')) {
      const id = await queueMessage(
        { ...ctx, db: tx },
        {
          merchantId: merchant.id,
          channel: 'sms',
          recipient: customer.phoneNumber!,
          bodyText: texts.sms,
          payLinkId: token,
        },
      );
      queued.push({ id, channel: 'sms' });
    }
    if (send.includes('email')) {
      const id = await queueMessage(
        { ...ctx, db: tx },
        {
          merchantId: merchant.id,
          channel: 'email',
          recipient: customer.email!,
          subject: texts.email.subject,
          bodyText: texts.email.text,
          bodyHtml: texts.email.html,
          payLinkId: token,
        },
      );
      queued.push({ id, channel: 'email' });
    }
  });
  const d = await firstTries(ctx, queued);
  const head =
    d.sent.length > 0
      ? `Card request sent to the customer by ${d.sent.map(channelName).join(' and ')}.`
      : 'Card request created.';
  return { message: `${head}${deliveryNote(d)}${unsentNote(unsent)}`, channels: d.sent };
}
