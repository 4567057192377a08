import { and, eq } from 'drizzle-orm';
import { isErrorCode, type PayRequest, type PayResult } from '@remit/contract';
import type { Locale } from '@remit/contract/locales';
import type { Ctx } from '../context.js';
import type { Tx } from '../db/connect.js';
import { achMandates, payChallenges } from '../db/schema.js';
import { checkCard, refuseBankNumbers, refuseCardNumbers, storeCard } from '../customers/vault.js';
import { RemitError } from '../errors.js';
import { newId } from '../ids.js';
import { payeeOf } from '../payments/payee.js';
import { OutcomeUnknown, type AuthorizeResult } from '../processor/connector.js';
import { AUTHENTICATION_REQUIRED } from '../processor/simulator.js';
import { processorKey } from '../processor/keys.js';
import { inTransaction } from '../operation.js';
import { payAmounts } from './amounts.js';
import { parsePayBank, parsePayCard, type PayBank, type PayCard } from './inputs.js';
import { markAttemptProcessing } from './processing-attempts.js';
import { clientChosenChallenge, issuerChallenge, issuerReturnUrl } from './issuer-challenge.js';
import {
  lockPayable,
  recordApproval,
  recordBankDebit,
  recordDecline,
  THREE_DS_FAILED_MESSAGE,
  type Outcome,
  type Payable,
} from './payable.js';

/**
 * Paying a link on the hosted pay page. Every attempt runs in one database transaction that
 * holds the link row (`FOR UPDATE`): a second attempt waits, then finds the link paid. The card
 * network is called while the lock is held, so two attempts can never both charge.
 */

/** How long a 3-D Secure challenge may be answered. */
export const CHALLENGE_TTL_MS = 15 * 60 * 1000;

/** Who is paying: the address and browser an ACH mandate's acceptance records. */
export interface PayClient {
  ip: string;
  userAgent: string;
}

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
  return attempt(ctx, async (tx, ctx) =>
    debitBank(ctx, tx, await lockPayable(ctx, tx, linkId, 'ach', locale), bank, client),
  );
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
    if (!ch)
      throw new RemitError(
        'challenge_not_found',
        'This 3-D Secure challenge does not exist; pay again to start a new one.',
      );
    // The outcome a page may choose is the simulator's only; any other is read from the processor.
    if (ch.gatewayRef || !clientChosenChallenge(ctx)) {
      throw new RemitError(
        'challenge_not_found',
        "This 3-D Secure challenge is answered on the card issuer's page, not here.",
      );
    }
    if (ch.status !== 'open') {
      throw new RemitError(
        'challenge_answered',
        'This 3-D Secure challenge was already answered; pay again to start a new one.',
      );
    }
    const expired = p.now.getTime() - ch.createdAt.getTime() > CHALLENGE_TTL_MS;
    const passed = outcome === 'complete' && !expired;
    // The card is kept only while the challenge is open: answered, it is gone from the database.
    await tx
      .update(payChallenges)
      .set({ status: passed ? 'completed' : 'failed', answeredAt: p.now, cardEnc: '' })
      .where(eq(payChallenges.id, ch.id));
    if (expired) {
      return {
        kind: 'declined',
        code: 'challenge_expired',
        message: 'The 3-D Secure challenge expired. Pay again to start a new one.',
      };
    }
    if (!passed) return { kind: 'declined', code: 'three_ds_failed', message: THREE_DS_FAILED_MESSAGE };
    const kept = JSON.parse(ctx.vault.decrypt(ch.cardEnc)) as Omit<PayCard, 'cvc'>;
    return chargeCard(ctx, tx, p, { ...kept, cvc: '' }, ch.brand, true);
  });
}

async function chargeCard(
  ctx: Ctx,
  tx: Tx,
  p: Payable,
  card: PayCard,
  brand: string,
  authenticated: boolean,
): Promise<Outcome> {
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
    // The processor may have charged: the link waits, `processing`, until it is asked (processing-attempts.ts).
    if (e instanceof OutcomeUnknown) return markAttemptProcessing(tx, p, { key, brand, lastFour });
    throw e;
  }
  if (!result.approved) {
    if (result.redirectUrl)
      return issuerChallenge(tx, p, {
        gatewayRef: result.gatewayRef,
        redirectUrl: result.redirectUrl,
        brand,
        lastFour,
      });
    if (result.code === AUTHENTICATION_REQUIRED && !authenticated && clientChosenChallenge(ctx))
      return challenge(ctx, tx, p, card, brand);
    return recordDecline(ctx, tx, p, {
      id: attemptId,
      amount,
      brand,
      lastFour,
      gatewayRef: result.gatewayRef,
      code: result.code,
      message: result.message,
    });
  }
  // "isRequestCard" on an authorization request: the card paid with is also kept for the customer.
  const method =
    link.isRequestCard && link.customerId
      ? await storeCard(tx, ctx, { merchantId: merchant.id, customerId: link.customerId, now: p.now }, card, brand)
      : null;
  return recordApproval(ctx, tx, p, {
    amount,
    brand,
    lastFour,
    authCode: result.authCode,
    gatewayRef: result.gatewayRef,
    paymentMethodId: method?.id ?? null,
  });
}

/** A pending ACH debit for the link's bank total; `/update-ach` approves or returns it later. */
async function debitBank(ctx: Ctx, tx: Tx, p: Payable, bank: PayBank, client: PayClient): Promise<Outcome> {
  const { link, merchant, sale } = p;
  const amount = payAmounts(link, merchant).total.ach;
  // The debit authorization the customer accepted on this page (the request requires it).
  const mandate = { acceptedAt: ctx.now(), ip: client.ip, userAgent: client.userAgent };
  await tx.insert(achMandates).values({
    transactionId: sale.id,
    payLinkId: link.id,
    acceptedAt: mandate.acceptedAt,
    ipAddress: mandate.ip,
    userAgent: mandate.userAgent,
  });
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
