import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { customers } from '../db/schema.js';
import { invalid, RemitError } from '../errors.js';
import { merchantNow } from '../clock.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { queueMessage } from '../messages/outbox.js';
import { deliverable, nothingSendable, type Channel } from '../messages/channels.js';
import { paymentRequestEmail, paymentRequestSms } from '../messages/templates.js';
import { firstTries, type Delivery, type QueuedMessage } from '../messages/first-try.js';
import { openLink, type OpenedLink } from './open-link.js';
import { widgetLinkFields } from './expiry.js';
import { matchLocale, type Locale } from '@remit/contract/locales';
import type {
  CustomerRequestInput,
  CustomerRequestResult,
  PaymentRequestInput,
  PaymentRequestResult,
} from '@remit/contract';
import { assertPayable, linkTotals } from './totals.js';
import { inTransaction } from '../operation.js';

/** The reply's message says which messages went (Delivery), and which could not go at all (`unsent`). */
export interface RequestOutcome<T> extends Delivery {
  data: T;
  /** Which were asked for but cannot go out from this server (no transport): the reply says so. */
  unsent: Channel[];
}

interface Recipients {
  phone?: string | null;
  email?: string | null;
  name?: string | null;
  description?: string | null;
  /** The customer's language: the messages' and, through `?locale=`, the pay page's. */
  locale?: Locale;
}

/** The language a request's `locale` tag asks for: English for one Remit does not speak; none when not given. */
export const customerLocale = (tag: string | undefined): Locale | undefined =>
  tag ? (matchLocale(tag) ?? 'en') : undefined;

/** Queues the SMS and/or email that carry the link, in the transaction that made it. */
async function sendLink(
  ctx: Pick<Ctx, 'messaging' | 'op' | 'outbox'>,
  tx: Tx,
  merchant: Merchant,
  opened: OpenedLink,
  to: Recipients,
  preauth: boolean,
): Promise<{ queued: QueuedMessage[]; unsent: Channel[] }> {
  const content = {
    businessName: merchant.businessname,
    amountCents: opened.totals.total,
    link: opened.payLink + (to.locale ? `?locale=${to.locale}` : ''),
    locale: to.locale,
    orderId: opened.orderId,
    customerName: to.name ?? undefined,
    description: to.description ?? undefined,
    preauth,
  };
  const { send, unsent } = deliverable(ctx, [
    ...(to.phone ? ['sms' as const] : []),
    ...(to.email ? ['email' as const] : []),
  ]);
  const queued: QueuedMessage[] = [];
  if (to.phone && send.includes('sms')) {
    const id = await queueMessage(
      { ...ctx, db: tx },
      {
        merchantId: merchant.id,
        channel: 'sms',
        recipient: to.phone,
        bodyText: paymentRequestSms(content),
        payLinkId: opened.linkId,
      },
    );
    queued.push({ id, channel: 'sms' });
  }
  if (to.email && send.includes('email')) {
    const email = paymentRequestEmail(content);
    const id = await queueMessage(
      { ...ctx, db: tx },
      {
        merchantId: merchant.id,
        channel: 'email',
        recipient: to.email,
        subject: email.subject,
        bodyText: email.text,
        bodyHtml: email.html,
        payLinkId: opened.linkId,
      },
    );
    queued.push({ id, channel: 'email' });
  }
  return { queued, unsent };
}

/** An authorization is held on a card: a preauth link that refuses cards could never be paid. */
function assertAuthorizable(input: { preauth: boolean; allow_card: boolean }) {
  if (input.preauth && !input.allow_card) {
    const message = 'must be true when preauth is true: an authorization is placed on a card';
    throw invalid('preauth_needs_card', `allow_card ${message}.`, [{ path: 'allow_card', message }]);
  }
}

/**
 * `POST /requests`: a pay link for an order, its pending sale (a `PreAuth` when `preauth`), and
 * the SMS/email that carry it. `order_id` is unique per merchant among requests (409).
 * `widget`: sent by the widget backend (it expires unpaid, see expiry.ts).
 */
export async function createPaymentRequest(
  ctx: Ctx,
  merchant: Merchant,
  input: Omit<PaymentRequestInput, 'merchant_key'>,
  opts: { widget?: boolean } = {},
): Promise<RequestOutcome<PaymentRequestResult>> {
  const amounts = {
    amountCents: input.amount,
    taxCents: input.tax ?? 0,
    surchargeCents: input.surcharge ?? 0,
    discountCents: input.discount ?? 0,
    passFee: input.pass_fee,
  };
  assertPayable(linkTotals(amounts, merchant), merchant.maxAmountCents);
  assertAuthorizable(input);
  const at = merchantNow(ctx.now, merchant);
  const made = await inTransaction(ctx, async (tx, ctx) => {
    const opened = await openLink(
      ctx,
      tx,
      merchant,
      {
        kind: 'request',
        orderId: input.order_id,
        invoiceNumber: input.invoice_number ?? null,
        ...amounts,
        allowCard: input.allow_card,
        allowAch: input.allow_ach,
        preauth: input.preauth,
        require3ds: input.require_3ds,
        description: input.description ?? null,
        customerName: input.name ?? null,
        email: input.email ?? null,
        phoneNumber: input.phone_number ?? null,
        // A merchant key is a secret: kept encrypted, never in plain text.
        subMerchantKey: input.sub_merchant_key ? ctx.vault.encrypt(input.sub_merchant_key) : null,
        embedOrigin: input.embed_origin ?? null,
        ...(opts.widget && widgetLinkFields('request', at)),
      },
      at,
    );
    const messages = await sendLink(
      ctx,
      tx,
      merchant,
      opened,
      {
        phone: input.phone_number,
        email: input.email,
        name: input.name,
        description: input.description,
        locale: customerLocale(input.locale),
      },
      input.preauth,
    );
    return { data: { order_id: opened.orderId, link_id: opened.linkId, pay_link: opened.payLink }, ...messages };
  });
  return { data: made.data, unsent: made.unsent, ...(await firstTries(ctx, made.queued)) };
}

/**
 * The customer authorization request, `POST /requests/{customerId}`: sends a stored customer of
 * the merchant a pay link by SMS and/or email, whichever contacts the customer has.
 * `isRequestCard` asks the pay step to save the card on the customer.
 */
export async function createCustomerRequest(
  ctx: Ctx,
  merchant: Merchant,
  customerId: number,
  input: CustomerRequestInput,
): Promise<RequestOutcome<CustomerRequestResult>> {
  const amounts = { amountCents: input.amount, taxCents: 0, surchargeCents: 0, discountCents: 0, passFee: false };
  assertPayable(linkTotals(amounts, merchant), merchant.maxAmountCents);
  assertAuthorizable(input);
  const at = merchantNow(ctx.now, merchant);
  const made = await inTransaction(ctx, async (tx, ctx) => {
    const [customer] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchant.id)))
      .limit(1);
    if (!customer) {
      throw new RemitError('customer_not_found', `No customer ${customerId} belongs to this merchant.`);
    }
    if (!customer.email && !customer.phoneNumber) {
      throw new RemitError(
        'customer_has_no_contact',
        'This customer has no email or phone number to send the request to; add one to the customer first.',
      );
    }
    const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
    const opened = await openLink(
      ctx,
      tx,
      merchant,
      {
        kind: 'customer_request',
        orderId: input.order_id,
        invoiceNumber: input.invoice_number ?? null,
        ...amounts,
        allowCard: input.allow_card,
        allowAch: input.allow_ach,
        preauth: input.preauth,
        isRequestCard: input.isRequestCard,
        customerId: customer.id,
        customerName: name,
        email: customer.email,
        phoneNumber: customer.phoneNumber,
      },
      at,
    );
    const messages = await sendLink(
      ctx,
      tx,
      merchant,
      opened,
      {
        phone: customer.phoneNumber,
        email: customer.email,
        name: customer.firstName,
        locale: customerLocale(input.locale),
      },
      input.preauth,
    );
    // Its one purpose is the message: with none sendable, nothing is kept (the transaction rolls back).
    if (messages.queued.length === 0) throw nothingSendable('authorization request', messages.unsent);
    return {
      data: { order_id: opened.orderId, link_id: opened.linkId, pay_link: opened.payLink, sales_id: opened.salesId },
      ...messages,
    };
  });
  return { data: made.data, unsent: made.unsent, ...(await firstTries(ctx, made.queued)) };
}
