import { eq } from 'drizzle-orm';
import type { PayResult, Receipt } from '@remit/contract';
import type { Locale } from '@remit/contract/locales';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { payLinks, transactions } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import { receiptEmail } from '../messages/receipt.js';
import { queueMessage } from '../messages/outbox.js';
import { amountNumber } from '../money.js';
import { ACH_BRAND, requireApproved } from '../payments/charges.js';
import { paymentSuccessData } from '../payments/payloads.js';
import { recordPaymentFailed } from '../payments/failed-event.js';
import { authorizedColumns } from '../payments/authorization.js';
import { feeFor } from '../payments/fees.js';
import { stateColumns, stateOf } from '../payments/state.js';
import { loadLink, saleOf, type LinkRow, type PayMerchantRow, type SaleRow } from './lookup.js';
import { receiptOf } from './view.js';

/**
 * A link locked for a pay attempt (`Payable`) and what an attempt records on it: a decline, an
 * approval, a bank debit, the link paid with its receipt. The pay page's calls (pay.ts), the issuer's
 * challenge, a processing attempt's settling and Stripe's PaymentIntents all record through these.
 */

export const MERCHANT_CANNOT_PAY_MESSAGE =
  'This merchant cannot take payments yet. Try again later or contact the merchant.';
export const ALREADY_PAID_MESSAGE = 'This link has already been paid.';
export const THREE_DS_FAILED_MESSAGE = '3-D Secure authentication failed. Try again, or use another card.';
export const LINK_PROCESSING_MESSAGE =
  "We're confirming your payment with the card processor. Don't pay again: this page shows the result as soon as it is known.";

type Method = 'card' | 'ach';

export interface Payable {
  link: LinkRow;
  merchant: PayMerchantRow;
  sale: SaleRow;
  now: Date;
  /** The language the customer pays in: the receipt email's. */
  locale: Locale;
}

/** Locks the link and its sale and checks it can be paid now by `method`. */
export async function lockPayable(
  ctx: Ctx,
  tx: Tx,
  linkId: string,
  method: Method,
  locale: Locale = 'en',
): Promise<Payable> {
  const { link, merchant } = await loadLink(tx, ctx.now, linkId, 'pay', { lock: true });
  const sale = await saleOf(tx, link, { lock: true });
  if (sale && link.status !== 'paid' && stateOf(sale.isStatus) === 'processing') {
    throw new RemitError('payment_processing', LINK_PROCESSING_MESSAGE);
  }
  if (link.status === 'paid' || !sale || sale.status !== 'pending') {
    throw new RemitError('link_already_paid', ALREADY_PAID_MESSAGE);
  }
  requireApproved(merchant, MERCHANT_CANNOT_PAY_MESSAGE);
  if (method === 'ach' && link.preauth) {
    throw invalid(
      'method_not_allowed',
      'An authorization is placed on a card; this link cannot be paid by bank account.',
      [{ path: 'method', message: 'must be card for an authorization' }],
    );
  }
  if ((method === 'card' && !link.allowCard) || (method === 'ach' && !link.allowAch)) {
    const other = method === 'card' ? 'bank account' : 'card';
    throw invalid(
      'method_not_allowed',
      `This link cannot be paid by ${method === 'card' ? 'card' : 'bank account'}; pay by ${other}.`,
      [{ path: 'method', message: `must be ${method === 'card' ? 'ach' : 'card'} for this link` }],
    );
  }
  return { link, merchant, sale, now: merchantNow(ctx.now, merchant), locale };
}

export type Outcome = { kind: 'done'; result: PayResult } | { kind: 'declined'; code: string; message: string };

/**
 * A declined card attempt is recorded (the merchant sees declines), with its `payment.failed`
 * unless `notify` is false (Stripe's own event sends it); the link's sale stays open.
 */
export async function recordDecline(
  ctx: Ctx,
  tx: Tx,
  p: Payable,
  d: {
    id: string;
    amount: number;
    brand: string;
    lastFour: string;
    gatewayRef: string | null;
    code: string;
    message: string;
  },
  opts: { notify?: boolean } = {},
): Promise<Outcome> {
  const { link, merchant, sale, now } = p;
  if (opts.notify !== false)
    await recordPaymentFailed(
      { ...ctx, db: tx },
      {
        merchantId: merchant.id,
        clientId: merchant.clientId,
        transactionId: d.id,
        orderId: link.orderId,
        amountCents: d.amount,
        code: d.code,
        message: d.message,
        method: 'card',
      },
    );
  await tx.insert(transactions).values({
    id: d.id,
    merchantId: merchant.id,
    type: sale.type,
    paymentMethod: 'card',
    ...stateColumns('declined'),
    amountCents: d.amount,
    feeCents: 0,
    feeRateE7: 0,
    netCents: 0,
    payLinkId: link.id,
    customerId: link.customerId,
    orderId: link.orderId,
    invoiceNumber: link.invoiceNumber,
    orderCreatedfrom: sale.orderCreatedfrom,
    gatewayRef: d.gatewayRef,
    cardBrand: d.brand,
    lastFour: d.lastFour,
    declineReason: d.message,
    createdAt: now,
    updatedAt: now,
  });
  return { kind: 'declined', code: d.code, message: d.message };
}

/** An approved card payment: the link's sale completes (or is authorized) with its event, and the link is paid. */
export async function recordApproval(
  ctx: Ctx,
  tx: Tx,
  p: Payable,
  a: {
    amount: number;
    brand: string;
    lastFour: string;
    authCode: string;
    gatewayRef: string;
    paymentMethodId: string | null;
  },
): Promise<Outcome> {
  const { link, merchant, sale, now } = p;
  const amount = a.amount;
  const [row] = await tx
    .update(transactions)
    .set({
      paymentMethod: 'card',
      amountCents: amount,
      ...authorizedColumns(merchant, amount, link.preauth, now),
      authCode: a.authCode,
      cardBrand: a.brand,
      lastFour: a.lastFour,
      gatewayRef: a.gatewayRef,
      customerId: link.customerId,
      paymentMethodId: a.paymentMethodId,
      updatedAt: now,
    })
    .where(eq(transactions.id, sale.id))
    .returning();
  const base = { clientId: merchant.clientId, merchantId: merchant.id };
  if (link.preauth) {
    await recordEvent(
      { ...ctx, db: tx },
      {
        ...base,
        type: 'preauth',
        data: {
          merchant_id: merchant.id,
          guid: row!.id,
          amount: amountNumber(amount),
          order_id: link.orderId,
          customer_id: link.customerId ?? 0,
        },
      },
    );
  } else {
    await recordEvent({ ...ctx, db: tx }, { ...base, type: 'payment.success', data: paymentSuccessData(row!) });
  }
  return { kind: 'done', result: { status: 'paid', receipt: await markPaid(ctx, tx, p, row!) } };
}

/** A bank debit the processor started: the link's sale is a pending ACH payment, and the link is paid. */
export async function recordBankDebit(
  ctx: Ctx,
  tx: Tx,
  p: Payable,
  d: { amount: number; lastFour: string; gatewayRef: string },
): Promise<Outcome> {
  const { link, merchant, sale, now } = p;
  const fee = feeFor(merchant, 'ach', d.amount);
  const [row] = await tx
    .update(transactions)
    .set({
      paymentMethod: 'ach',
      ...stateColumns('pending'),
      amountCents: d.amount,
      feeCents: fee.feeCents,
      feeRateE7: fee.rateE7,
      netCents: fee.netCents,
      cardBrand: ACH_BRAND,
      lastFour: d.lastFour,
      gatewayRef: d.gatewayRef,
      customerId: link.customerId,
      updatedAt: now,
    })
    .where(eq(transactions.id, sale.id))
    .returning();
  return { kind: 'done', result: { status: 'paid', receipt: await markPaid(ctx, tx, p, row!) } };
}

/** The link becomes paid; a payment request with an email gets its receipt by email, in the same transaction. */
async function markPaid(
  ctx: Pick<Ctx, 'messaging' | 'op' | 'outbox'>,
  tx: Tx,
  p: Payable,
  sale: SaleRow,
): Promise<Receipt> {
  const [link] = await tx
    .update(payLinks)
    .set({ status: 'paid', paidAt: p.now })
    .where(eq(payLinks.id, p.link.id))
    .returning();
  const receipt = receiptOf(link!, sale, p.merchant.businessname);
  // No email transport (production without SMTP_URL): no receipt is queued to fail.
  if (link!.email && ctx.messaging.email) {
    const email = receiptEmail({
      businessName: p.merchant.businessname,
      amountCents: receipt.amount,
      status: receipt.status,
      brand: receipt.brand,
      lastFour: receipt.last_four,
      authCode: receipt.auth_code,
      transactionId: receipt.transaction_id,
      orderId: receipt.order_id,
      invoiceNumber: receipt.invoice_number,
      date: receipt.date,
      customerName: link!.customerName,
      locale: p.locale,
    });
    await queueMessage(
      { ...ctx, db: tx },
      {
        merchantId: p.merchant.id,
        channel: 'email',
        recipient: link!.email,
        subject: email.subject,
        bodyText: email.text,
        bodyHtml: email.html,
        payLinkId: link!.id,
      },
    );
  }
  return receipt;
}
