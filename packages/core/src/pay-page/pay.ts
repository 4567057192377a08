import { and, eq } from 'drizzle-orm';
import { isErrorCode, type PayRequest, type PayResult, type Receipt } from '@remit/contract';
import type { Locale } from '@remit/contract/locales';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { achMandates, payChallenges, payLinks, transactions } from '../db/schema.js';
import { checkCard, refuseBankNumbers, refuseCardNumbers, storeCard } from '../customers/vault.js';
import { invalid, RemitError } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import { newId } from '../ids.js';
import { receiptEmail } from '../messages/receipt.js';
import { queueMessage } from '../messages/outbox.js';
import { amountNumber } from '../money.js';
import { ACH_BRAND, paymentSuccessData, requireApproved } from '../payments/charges.js';
import { authorizedColumns } from '../payments/authorization.js';
import { feeFor } from '../payments/fees.js';
import { payeeOf } from '../payments/payee.js';
import { stateColumns, stateOf } from '../payments/state.js';
import { OutcomeUnknown, type AuthorizeResult } from '../processor/connector.js';
import { AUTHENTICATION_REQUIRED } from '../processor/simulator.js';
import { processorKey } from '../processor/keys.js';
import { inTransaction } from '../operation.js';
import { payAmounts } from './amounts.js';
import { parsePayBank, parsePayCard, type PayBank, type PayCard } from './inputs.js';
import { loadLink, saleOf, type LinkRow, type PayMerchantRow, type SaleRow } from './lookup.js';
import { receiptOf } from './view.js';
import { LINK_PROCESSING_MESSAGE, markAttemptProcessing } from './processing.js';
import { clientChosenChallenge, issuerChallenge, issuerReturnUrl } from './issuer-challenge.js';

/**
 * Paying a link on the hosted pay page. Every attempt runs in one database transaction that
 * holds the link row (`FOR UPDATE`): a second attempt waits, then finds the link paid. The card
 * network is called while the lock is held, so two attempts can never both charge.
 */

export const MERCHANT_CANNOT_PAY_MESSAGE = 'This merchant cannot take payments yet. Try again later or contact the merchant.';
export const ALREADY_PAID_MESSAGE = 'This link has already been paid.';
export const THREE_DS_FAILED_MESSAGE = '3-D Secure authentication failed. Try again, or use another card.';
/** How long a 3-D Secure challenge may be answered. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;

type Method = 'card' | 'ach';

/** Who is paying: the address and browser an ACH mandate's acceptance records. */
export interface PayClient {
  ip: string;
  userAgent: string;
}

export interface Payable {
  link: LinkRow;
  merchant: PayMerchantRow;
  sale: SaleRow;
  now: Date;
  /** The language the customer pays in: the receipt email's. */
  locale: Locale;
}

/** Locks the link and its sale and checks it can be paid now by `method`. */
export async function lockPayable(ctx: Ctx, tx: Tx, linkId: string, method: Method, locale: Locale = 'en'): Promise<Payable> {
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
    throw invalid('method_not_allowed', 'An authorization is placed on a card; this link cannot be paid by bank account.', [
      { path: 'method', message: 'must be card for an authorization' },
    ]);
  }
  if ((method === 'card' && !link.allowCard) || (method === 'ach' && !link.allowAch)) {
    const other = method === 'card' ? 'bank account' : 'card';
    throw invalid('method_not_allowed', `This link cannot be paid by ${method === 'card' ? 'card' : 'bank account'}; pay by ${other}.`, [
      { path: 'method', message: `must be ${method === 'card' ? 'ach' : 'card'} for this link` },
    ]);
  }
  return { link, merchant, sale, now: merchantNow(ctx.now, merchant), locale };
}

export type Outcome = { kind: 'done'; result: PayResult } | { kind: 'declined'; code: string; message: string };

/** Runs an attempt (`run` gets the context scoped to its transaction); a decline commits what it recorded, then answers 402. */
async function attempt(ctx: Ctx, run: (tx: Tx, ctx: Ctx) => Promise<Outcome>): Promise<PayResult> {
  const outcome = await inTransaction(ctx, run);
  if (outcome.kind === 'declined') {
    // The network's decline codes are the catalogue's; any other refusal is a plain decline.
    throw new RemitError(isErrorCode(outcome.code) ? outcome.code : 'card_declined', outcome.message);
  }
  return outcome.result;
}

/**
 * `POST /pay/api/links/{link_id}/pay`: pays the link by card (a sale, or an authorization on a
 * `preauth` link) or by bank account (a pending ACH debit). A card that needs 3-D Secure, or any
 * card on a `require_3ds` link, answers a challenge instead and nothing is charged yet.
 */
/** `locale`: the language of the page the customer pays on (its API calls' Accept-Language), for the receipt. */
export async function payLink(
  ctx: Ctx,
  linkId: string,
  request: PayRequest,
  client: PayClient = { ip: '', userAgent: '' },
  locale: Locale = 'en',
): Promise<PayResult> {
  if (request.method === 'card') {
    refuseCardNumbers(ctx);
    const card = parsePayCard(request.card);
    return attempt(ctx, async (tx, ctx) => {
      const p = await lockPayable(ctx, tx, linkId, 'card', locale);
      const brand = checkCard(ctx, card, p.now);
      if (p.link.require3ds && clientChosenChallenge(ctx)) return challenge(ctx, tx, p, card, brand);
      return chargeCard(ctx, tx, p, card, brand, false);
    });
  }
  refuseBankNumbers(ctx);
  const bank = parsePayBank(request.bank);
  return attempt(ctx, async (tx, ctx) => debitBank(ctx, tx, await lockPayable(ctx, tx, linkId, 'ach', locale), bank, client));
}

/** Keeps the card (encrypted, no CVC) until the customer answers the challenge. */
async function challenge(ctx: Ctx, tx: Tx, p: Payable, card: PayCard, brand: string): Promise<Outcome> {
  // A new challenge replaces the link's open ones: their cards are forgotten.
  await tx
    .update(payChallenges)
    .set({ status: 'failed', answeredAt: p.now, cardEnc: '' })
    .where(and(eq(payChallenges.payLinkId, p.link.id), eq(payChallenges.status, 'open')));
  const id = newId.challenge();
  const { cvc: _cvc, ...kept } = card;
  const lastFour = card.number.slice(-4);
  await tx.insert(payChallenges).values({
    id,
    payLinkId: p.link.id,
    status: 'open',
    cardEnc: ctx.vault.encrypt(JSON.stringify(kept)),
    brand,
    lastFour,
    createdAt: p.now,
  });
  return { kind: 'done', result: { status: 'challenge', challenge: { id, brand, last_four: lastFour } } };
}

/**
 * `POST /pay/api/links/{link_id}/challenges/{challenge_id}`: `complete` charges the card held by
 * the challenge; `fail` answers 402 `three_ds_failed` and the link stays open for another try.
 */
export async function answerChallenge(
  ctx: Ctx,
  linkId: string,
  challengeId: string,
  outcome: 'complete' | 'fail',
  locale: Locale = 'en',
): Promise<PayResult> {
  return attempt(ctx, async (tx, ctx) => {
    const p = await lockPayable(ctx, tx, linkId, 'card', locale);
    const [ch] = /^chl_[0-9A-Za-z]{1,64}$/.test(challengeId)
      ? await tx
          .select()
          .from(payChallenges)
          .where(and(eq(payChallenges.id, challengeId), eq(payChallenges.payLinkId, p.link.id)))
          .for('update')
      : [];
    if (!ch) throw new RemitError('challenge_not_found', 'This 3-D Secure challenge does not exist; pay again to start a new one.');
    // The outcome a page may choose is the simulator's only; any other is read from the processor.
    if (ch.gatewayRef || !clientChosenChallenge(ctx)) {
      throw new RemitError('challenge_not_found', "This 3-D Secure challenge is answered on the card issuer's page, not here.");
    }
    if (ch.status !== 'open') {
      throw new RemitError('challenge_answered', 'This 3-D Secure challenge was already answered; pay again to start a new one.');
    }
    const expired = p.now.getTime() - ch.createdAt.getTime() > CHALLENGE_TTL_MS;
    const passed = outcome === 'complete' && !expired;
    // The card is kept only while the challenge is open: answered, it is gone from the database.
    await tx
      .update(payChallenges)
      .set({ status: passed ? 'completed' : 'failed', answeredAt: p.now, cardEnc: '' })
      .where(eq(payChallenges.id, ch.id));
    if (expired) {
      return { kind: 'declined', code: 'challenge_expired', message: 'The 3-D Secure challenge expired. Pay again to start a new one.' };
    }
    if (!passed) return { kind: 'declined', code: 'three_ds_failed', message: THREE_DS_FAILED_MESSAGE };
    const kept = JSON.parse(ctx.vault.decrypt(ch.cardEnc)) as Omit<PayCard, 'cvc'>;
    return chargeCard(ctx, tx, p, { ...kept, cvc: '' }, ch.brand, true);
  });
}

async function chargeCard(ctx: Ctx, tx: Tx, p: Payable, card: PayCard, brand: string, authenticated: boolean): Promise<Outcome> {
  const { link, merchant } = p;
  const amount = payAmounts(link, merchant).total.card;
  // Each attempt is a processor operation of its own (a declined card, then another card).
  const attemptId = newId.transaction();
  const key = processorKey(ctx.op.key, 'authorize', attemptId);
  const lastFour = card.number.slice(-4);
  let result: AuthorizeResult;
  try {
    result = await ctx.processor.authorizeCard(
      { number: card.number, expMonth: card.exp_month, expYear: card.exp_year, cvc: card.cvc || undefined },
      amount,
      {
        capture: !link.preauth,
        now: p.now,
        authenticated,
        requireAuthentication: link.require3ds,
        // A processor with its own 3-D Secure page sends the customer back here (issuer-challenge.ts).
        returnUrl: issuerReturnUrl(ctx, link.id),
        idempotencyKey: key,
        payee: payeeOf(merchant, 'card', amount),
      },
    );
  } catch (e) {
    // The processor may have charged: the link waits, `processing`, until it is asked (processing.ts).
    if (e instanceof OutcomeUnknown) return markAttemptProcessing(tx, p, { key, brand, lastFour });
    throw e;
  }
  if (!result.approved) {
    if (result.redirectUrl) return issuerChallenge(tx, p, { gatewayRef: result.gatewayRef, redirectUrl: result.redirectUrl, brand, lastFour });
    if (result.code === AUTHENTICATION_REQUIRED && !authenticated && clientChosenChallenge(ctx)) return challenge(ctx, tx, p, card, brand);
    return recordDecline(tx, p, { id: attemptId, amount, brand, lastFour, gatewayRef: result.gatewayRef, code: result.code, message: result.message });
  }
  // "isRequestCard" on an authorization request: the card paid with is also kept for the customer.
  const method =
    link.isRequestCard && link.customerId
      ? await storeCard(tx, ctx, { merchantId: merchant.id, customerId: link.customerId, now: p.now }, card, brand)
      : null;
  return recordApproval(ctx, tx, p, { amount, brand, lastFour, authCode: result.authCode, gatewayRef: result.gatewayRef, paymentMethodId: method?.id ?? null });
}

/** A declined card attempt is recorded (the merchant sees declines); the link's sale stays open. */
export async function recordDecline(
  tx: Tx,
  p: Payable,
  d: { id: string; amount: number; brand: string; lastFour: string; gatewayRef: string | null; code: string; message: string },
): Promise<Outcome> {
  const { link, merchant, sale, now } = p;
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

/**
 * An approved card payment: the link's sale completes (or is authorized) with its event, and the
 * link is paid. `ctx`: scoped to `tx`'s operation (operation.ts, `inTransaction`).
 */
export async function recordApproval(
  ctx: Ctx,
  tx: Tx,
  p: Payable,
  a: { amount: number; brand: string; lastFour: string; authCode: string; gatewayRef: string; paymentMethodId: string | null },
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
    await recordEvent({ ...ctx, db: tx }, {
      ...base,
      type: 'preauth',
      data: {
        merchant_id: merchant.id,
        guid: row!.id,
        amount: amountNumber(amount),
        order_id: link.orderId,
        customer_id: link.customerId ?? 0,
      },
    });
  } else {
    await recordEvent({ ...ctx, db: tx }, { ...base, type: 'payment.success', data: paymentSuccessData(row!) });
  }
  return { kind: 'done', result: { status: 'paid', receipt: await markPaid(ctx, tx, p, row!) } };
}

/** A pending ACH debit for the link's bank total; `/update-ach` approves or returns it later. */
async function debitBank(ctx: Ctx, tx: Tx, p: Payable, bank: PayBank, client: PayClient): Promise<Outcome> {
  const { link, merchant, sale } = p;
  const amount = payAmounts(link, merchant).total.ach;
  // The debit authorization the customer accepted on this page (the request requires it).
  const mandate = { acceptedAt: ctx.now(), ip: client.ip, userAgent: client.userAgent };
  await tx.insert(achMandates).values({ transactionId: sale.id, payLinkId: link.id, acceptedAt: mandate.acceptedAt, ipAddress: mandate.ip, userAgent: mandate.userAgent });
  const { gatewayRef } = await ctx.processor.startAchDebit({
    routingNumber: bank.routing_number,
    accountNumber: bank.account_number,
    amountCents: amount,
    holderName: bank.holder_name || undefined,
    accountType: bank.account_type,
    mandate,
    idempotencyKey: processorKey(ctx.op.key, 'ach_debit', `${sale.id}\n${newId.transaction()}`),
    payee: payeeOf(merchant, 'ach', amount),
  });
  return recordBankDebit(ctx, tx, p, { amount, lastFour: bank.account_number.slice(-4), gatewayRef });
}

/** A bank debit the processor started: the link's sale is a pending ACH payment, and the link is paid. */
export async function recordBankDebit(ctx: Ctx, tx: Tx, p: Payable, d: { amount: number; lastFour: string; gatewayRef: string }): Promise<Outcome> {
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
async function markPaid(ctx: Pick<Ctx, 'messaging' | 'op' | 'outbox'>, tx: Tx, p: Payable, sale: SaleRow): Promise<Receipt> {
  const [link] = await tx.update(payLinks).set({ status: 'paid', paidAt: p.now }).where(eq(payLinks.id, p.link.id)).returning();
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
    await queueMessage({ ...ctx, db: tx }, {
      merchantId: p.merchant.id,
      channel: 'email',
      recipient: link!.email,
      subject: email.subject,
      bodyText: email.text,
      bodyHtml: email.html,
      payLinkId: link!.id,
    });
  }
  return receipt;
}
