import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  WIDGET_TRANSACTIONS_PAGE_SIZE,
  type WidgetConfig,
  type WidgetPayLink,
  type WidgetRequestResult,
  type WidgetTransactions,
} from '@remit/contract';
import type { Ctx } from '../context.js';
import { payLinks, transactions } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { createPayLink } from '../links/pay-links.js';
import { createPaymentRequest } from '../links/payment-requests.js';
import { nothingSendable } from '../messages/channels.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { formatAmount } from '../money.js';
import { newId } from '../ids.js';
import { appearanceCss, withOverride } from './appearance.js';
import { widgetAppearance, widgetFor, type WidgetRow } from './settings.js';
import { phoneCountry } from './sms-countries.js';

/**
 * The widget backend (`/widget/v1`): what a page holding only the merchant's public key may do.
 * The caller's Origin was checked before any of these run (see `widgetOriginsFor`).
 */

/** The origins a public key is accepted from: the settings' list; an empty list is any origin in sandbox, none in production. */
export async function widgetOriginsFor(ctx: Ctx, merchant: Merchant): Promise<readonly string[] | 'any'> {
  const w = await widgetFor(ctx, merchant);
  if (w.allowedOrigins.length) return w.allowedOrigins;
  return ctx.env === 'sandbox' ? 'any' : [];
}

/**
 * `GET /widget/v1/config`: the settings with the appearance resolved into the widgets' stylesheet
 * here (the widget chunk only adopts it), under the page's override when that one reads.
 */
export async function widgetConfig(ctx: Ctx, merchant: Merchant, override?: string): Promise<WidgetConfig> {
  const w = await widgetFor(ctx, merchant);
  const { appearance, warning } = withOverride(widgetAppearance(w), override);
  return {
    button_text: w.buttonText,
    theme: { primary_color: w.primaryColor },
    request_payment_enabled: w.requestPaymentEnabled,
    completed_transactions_enabled: w.completedTransactionsEnabled,
    max_amount: w.maxAmountCents === null ? null : formatAmount(w.maxAmountCents),
    appearance_css: appearanceCss(appearance, ':host'),
    appearance_warning: warning,
    environment: ctx.env,
  };
}

/**
 * The widget's own ceiling (`max_amount`) and the server's ceiling for public keys
 * (`serverMax`, REMIT_WIDGET_MAX_AMOUNT) come on top of the merchant's limit.
 */
function assertWidgetAmount(w: WidgetRow, amountCents: number, serverMax: number | null): void {
  const over = (max: number | null, whose: string) => {
    if (max === null || amountCents <= max) return;
    const message = `must be at most ${formatAmount(max)}, ${whose}`;
    throw invalid('amount_over_limit', `amount ${message}.`, [{ path: 'amount', message }]);
  };
  over(w.maxAmountCents, "the widget's max_amount");
  over(serverMax, "this server's limit for widget payments");
}

/** `POST /widget/v1/pay-links`: a pay link whose page posts its outcome to `origin` (the calling page). */
/** `orderId`: the merchant's own (`getPaymentPage`'s `order_id`); none, the link's id stands in and the page shows none. */
export async function createWidgetPayLink(
  ctx: Ctx,
  merchant: Merchant,
  origin: string,
  amountCents: number,
  serverMax: number | null = null,
  orderId?: string,
): Promise<WidgetPayLink> {
  const w = await widgetFor(ctx, merchant);
  assertWidgetAmount(w, amountCents, serverMax);
  const link = await createPayLink(
    ctx,
    merchant,
    { amount: amountCents, order_id: orderId, allow_card: true, allow_ach: true, embed_origin: origin },
    { widget: true },
  );
  return { link_id: link.link_id, pay_link: link.payment_link, amount: formatAmount(amountCents) };
}

/** Premium and international-network numbers cost the merchant: only the countries the settings allow are texted. */
function assertSmsCountry(w: WidgetRow, phone: string): void {
  const country = phoneCountry(phone);
  if (country && w.smsCountries.includes(country)) return;
  const message = `must be a phone number in ${w.smsCountries.join(', ')} (the widget settings' sms_countries)`;
  throw invalid('phone_country_not_allowed', `phone_number ${message}.`, [{ path: 'phone_number', message }]);
}

/**
 * `POST /widget/v1/payment-requests`: an SMS carrying a pay link to `phone` (E.164), in one of the
 * widget's sms_countries. `admit` (the rate limits) runs once the request is known to be allowed.
 */
export async function sendWidgetPaymentRequest(
  ctx: Ctx,
  merchant: Merchant,
  amountCents: number,
  phone: string,
  opts: { serverMax?: number | null; admit?: () => Promise<void> } = {},
): Promise<WidgetRequestResult> {
  const w = await widgetFor(ctx, merchant);
  if (!w.requestPaymentEnabled)
    throw new RemitError(
      'widget_disabled',
      'The request payment widget is turned off in the widget settings (request_payment_enabled).',
    );
  assertSmsCountry(w, phone);
  assertWidgetAmount(w, amountCents, opts.serverMax ?? null);
  // The answer says `sent` (or `queued`): it must be true.
  if (!ctx.messaging.sms) throw nothingSendable('payment request', ['sms']);
  // The caller's rate limits count only requests that pass the checks above.
  await opts.admit?.();
  const { data, failed, queued } = await createPaymentRequest(
    ctx,
    merchant,
    {
      amount: amountCents,
      order_id: newId.widgetRequest(),
      phone_number: phone,
      preauth: false,
      pass_fee: false,
      require_3ds: false,
      allow_card: true,
      allow_ach: true,
    },
    { widget: true },
  );
  // The link stays (it expires unpaid); the answer says the SMS did not go, with the provider's reason.
  if (failed[0]) throw new RemitError('sms_not_sent', `The SMS could not be sent: ${failed[0].error}`);
  return {
    status: queued.length > 0 ? 'queued' : 'sent',
    link_id: data.link_id,
    amount: formatAmount(amountCents),
    phone_last_four: phone.slice(-4),
  };
}

const SHOWN_STATES = ['completed', 'refunded'];
const SHOWN_TYPES = ['Sale', 'PreAuth'];

/**
 * `GET /widget/v1/transactions`: completed payments, newest first; date, amount, brand, last four,
 * status only. Only sales paid through a pay link (of the widgets, or any, per
 * completed_transactions_scope): charges made with the secret key are never shown to a public key.
 */
export async function listWidgetTransactions(ctx: Ctx, merchant: Merchant, page: number): Promise<WidgetTransactions> {
  const w = await widgetFor(ctx, merchant);
  if (!w.completedTransactionsEnabled) {
    throw new RemitError(
      'widget_disabled',
      'The completed transactions widget is turned off in the widget settings (completed_transactions_enabled).',
    );
  }
  const size = WIDGET_TRANSACTIONS_PAGE_SIZE;
  const rows = await ctx.db
    .select({
      id: transactions.id,
      completedAt: transactions.completedAt,
      createdAt: transactions.createdAt,
      amountCents: transactions.amountCents,
      paymentMethod: transactions.paymentMethod,
      cardBrand: transactions.cardBrand,
      lastFour: transactions.lastFour,
      status: transactions.status,
    })
    .from(transactions)
    .innerJoin(payLinks, eq(payLinks.id, transactions.payLinkId))
    .where(
      and(
        eq(transactions.merchantId, merchant.id),
        inArray(transactions.status, SHOWN_STATES),
        inArray(transactions.type, SHOWN_TYPES),
        w.completedTransactionsScope === 'pay_links' ? undefined : eq(payLinks.viaWidget, true),
      ),
    )
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(size + 1)
    .offset(page * size);
  return {
    data: rows.slice(0, size).map((r) => ({
      transaction_id: r.id,
      date: (r.completedAt ?? r.createdAt).toISOString(),
      amount: formatAmount(r.amountCents),
      brand: r.cardBrand || (r.paymentMethod === 'ach' ? 'Bank' : null),
      last_four: r.lastFour || null,
      status: r.status,
    })),
    page,
    page_size: size,
    has_more: rows.length > size,
  };
}
