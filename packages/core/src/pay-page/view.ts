import { eq } from 'drizzle-orm';
import type { AddCardView, CardEntry, PayLinkView, PayMerchant, PayPageState, Receipt } from '@remit/contract';
import type { Ctx } from '../context.js';
import { customers, paymentMethods } from '../db/schema.js';
import { isRemitError } from '../errors.js';
import { stylesheetPath, withOverride } from '../widgets/appearance.js';
import { findWidget, widgetAppearance, type WidgetRow } from '../widgets/settings.js';
import { allowsStatus, stateOf } from '../payments/state.js';
import { payAmounts } from './amounts.js';
import { verificationView } from '../merchants/verification.js';
import { pendingVerificationUrl } from './bank-verification.js';
import { framingOrigins } from './framing.js';
import { loadLink, saleOf, type LinkPurpose, type LinkRow, type PayMerchantRow, type SaleRow } from './lookup.js';

const KIND: Record<string, PayLinkView['kind']> = {
  link: 'pay_link',
  request: 'request',
  customer_request: 'authorization',
};

/** `g***@example.com`: enough for the customer to recognize the address, not to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

type Branding = Pick<WidgetRow, 'logoUrl' | 'primaryColor' | 'appearance' | 'allowedOrigins'> | null;

function payMerchant(merchant: PayMerchantRow, widget: Branding): PayMerchant {
  const restricted = verificationView(merchant).status === 'restricted';
  return {
    name: merchant.businessname,
    logo_url: widget?.logoUrl ?? null,
    primary_color: widget?.primaryColor ?? null,
    stylesheet: stylesheetPath(widgetAppearance(widget)),
    accepts_payments: merchant.status === 'approved' && !restricted,
    restricted,
  };
}

/** The receipt of a paid link, from its sale. */
export function receiptOf(link: LinkRow, sale: SaleRow, merchantName: string): Receipt {
  const method = sale.paymentMethod === 'ach' ? 'ach' : 'card';
  const status =
    sale.type === 'PreAuth'
      ? 'authorized'
      : method === 'ach' && allowsStatus(sale.isStatus, 'ach_approve')
        ? 'pending'
        : 'succeeded';
  return {
    transaction_id: sale.id,
    status,
    method,
    currency: 'USD',
    amount: sale.amountCents,
    brand: sale.cardBrand,
    last_four: sale.lastFour,
    auth_code: sale.authCode,
    date: (link.paidAt ?? sale.updatedAt).toISOString(),
    order_id: link.orderId,
    invoice_number: link.invoiceNumber,
    merchant_name: merchantName,
    emailed_to: link.email ? maskEmail(link.email) : null,
  };
}

/** What the pay page shows for a link: the merchant, the order, the itemized amounts, and a receipt once paid. */
/** Whose fields take the card: the processor's (Stripe.js, with its key and address) or Remit's own (the simulator). */
export function cardEntryOf(processor: Ctx['processor']): CardEntry {
  const e = processor.cardEntry;
  return e ? { kind: 'stripe', publishable_key: e.publishableKey, js_url: e.jsUrl } : { kind: 'remit' };
}

export function viewOf(
  link: LinkRow,
  merchant: PayMerchantRow,
  sale: SaleRow | null,
  widget: Branding,
  ctx: Pick<Ctx, 'env' | 'processor'>,
  verificationUrl: string | null = null,
): PayLinkView {
  const paid = link.status === 'paid' && sale !== null;
  return {
    link_id: link.id,
    kind: KIND[link.kind] ?? 'pay_link',
    status: paid ? 'paid' : sale && stateOf(sale.isStatus) === 'processing' ? 'processing' : 'open',
    merchant: payMerchant(merchant, widget),
    order_id: link.orderId,
    invoice_number: link.invoiceNumber,
    description: link.description,
    amounts: payAmounts(link, merchant),
    // An authorization holds funds on a card; a bank debit cannot be held.
    methods: { card: link.allowCard, ach: link.allowAch && !link.preauth },
    preauth: link.preauth,
    require_3ds: link.require3ds,
    embed_origin: link.embedOrigin,
    frame_ancestors: framingOrigins(ctx.env, widget?.allowedOrigins ?? [], link.embedOrigin),
    receipt: paid ? receiptOf(link, sale, merchant.businessname) : null,
    card_entry: cardEntryOf(ctx.processor),
    pending_verification_url: verificationUrl,
    sandbox: ctx.env === 'sandbox',
  };
}

/** `GET /pay/api/links/{link_id}`. */
export async function payLinkView(
  ctx: Pick<Ctx, 'db' | 'env' | 'now' | 'processor'>,
  linkId: string,
): Promise<PayLinkView> {
  const { link, merchant } = await loadLink(ctx.db, ctx.now, linkId, 'pay');
  const [sale, widget] = await Promise.all([saleOf(ctx.db, link), findWidget(ctx.db, merchant.id)]);
  return viewOf(link, merchant, sale, widget, ctx, await pendingVerificationUrl(ctx, link, sale));
}

/** `GET /pay/api/cards/{token}`. */
export async function addCardView(
  ctx: Pick<Ctx, 'db' | 'env' | 'now' | 'processor'>,
  token: string,
): Promise<AddCardView> {
  const { link, merchant } = await loadLink(ctx.db, ctx.now, token, 'card');
  return cardViewOf(ctx, link, merchant, await findWidget(ctx.db, merchant.id));
}

async function cardViewOf(
  ctx: Pick<Ctx, 'db' | 'env' | 'processor'>,
  link: LinkRow,
  merchant: PayMerchantRow,
  widget: Branding,
): Promise<AddCardView> {
  const db = ctx.db;
  const [[customer], [saved]] = await Promise.all([
    link.customerId
      ? db.select({ firstName: customers.firstName }).from(customers).where(eq(customers.id, link.customerId))
      : [],
    link.paymentMethodId
      ? db
          .select({ brand: paymentMethods.brand, last4: paymentMethods.last4 })
          .from(paymentMethods)
          .where(eq(paymentMethods.id, link.paymentMethodId))
      : [],
  ]);
  return {
    token: link.id,
    merchant: payMerchant(merchant, widget),
    customer_first_name: customer?.firstName ?? '',
    status: saved ? 'saved' : 'open',
    saved_card: saved ? { brand: saved.brand ?? '', last_four: saved.last4 } : null,
    card_entry: cardEntryOf(ctx.processor),
    sandbox: ctx.env === 'sandbox',
  };
}

export interface PayPage {
  /** The HTTP status of what the page shows. */
  status: 200 | 404 | 410;
  state: PayPageState;
  /** The merchant's allowed embedding origins, and the link's own (for `frame-ancestors`); empty when unknown. */
  allowedOrigins: string[];
  embedOrigin: string | null;
}

/**
 * The initial state of the HTML page at `/pay/{link_id}` (`link`) or `/pay/card/{token}` (`card`):
 * the view, or the error page's status, code and message. `appearance`: a page's override (JSON).
 */
export async function payPage(
  ctx: Pick<Ctx, 'db' | 'env' | 'now' | 'processor'>,
  id: string,
  purpose: LinkPurpose,
  appearance?: string,
): Promise<PayPage> {
  try {
    const { link, merchant } = await loadLink(ctx.db, ctx.now, id, purpose);
    const [widget, sale] = await Promise.all([
      findWidget(ctx.db, merchant.id),
      purpose === 'pay' ? saleOf(ctx.db, link) : null,
    ]);
    const frame = { allowedOrigins: widget?.allowedOrigins ?? [], embedOrigin: link.embedOrigin };
    const state: PayPageState =
      purpose === 'card'
        ? { page: 'card', view: await cardViewOf(ctx, link, merchant, widget) }
        : {
            page: 'link',
            view: viewOf(link, merchant, sale, widget, ctx, await pendingVerificationUrl(ctx, link, sale)),
          };
    // The embedding page's override (`?appearance=`, as the widgets pass theirs on), when it reads.
    if (appearance)
      state.view.merchant.stylesheet = stylesheetPath(withOverride(widgetAppearance(widget), appearance).appearance);
    return { status: 200, state, ...frame };
  } catch (e) {
    if (isRemitError(e) && (e.status === 404 || e.status === 410)) {
      const status = e.status;
      return {
        status,
        state: { page: 'error', status, code: e.code, message: e.message },
        allowedOrigins: [],
        embedOrigin: null,
      };
    }
    throw e;
  }
}
