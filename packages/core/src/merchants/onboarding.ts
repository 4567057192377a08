import { sealOwnerInfo } from './owner-info.js';
import type { OnboardingInput, OnboardingResult as OnboardingAnswer } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { recordEvent } from '../webhooks/outbox.js';
import * as fields from '../fields.js';
import { newId } from '../ids.js';
import { digest, newKey } from '../secret-keys.js';
import { agreementEmail } from '../messages/agreement-email.js';
import { queueMessage } from '../messages/outbox.js';
import { processorKey } from '../processor/keys.js';
import { agreementLink, newAgreementToken } from './agreement.js';
import { inTransaction } from '../operation.js';

/** Default pricing of a new merchant (docs/concepts.md "Money and fees"): card 2.9% + 0.30, ACH 1.0% capped at 10.00. */
export const DEFAULT_PRICING = {
  cardFeeRateE7: 29_000_000,
  cardFeeFixedCents: 30,
  achFeeRateE7: 10_000_000,
  achFeeCapCents: 1_000,
  maxAmountCents: fields.MAX_AMOUNT_CENTS,
} as const;

/** What `POST /onboarding` answers, and the new merchant's id. */
export interface OnboardingResult extends OnboardingAnswer {
  merchant_id: string;
}

/** With Stripe: the merchant's Custom connected account, made from the submission before anything is stored. */
async function connectedAccount(ctx: Ctx, merchantId: string, input: OnboardingInput): Promise<string | null> {
  if (!ctx.processor.accounts) return null;
  const { BankingInfo: bank, BusinessInfo: business, OwnerInfo: owner } = input;
  const { ein, ...businessRest } = business;
  const { ssn, ...ownerRest } = owner;
  const text = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
  const { account } = await ctx.processor.accounts.create(
    {
      merchantId,
      email: business.business_email,
      business: text(businessRest),
      owner: text(ownerRest),
      bank: { routingNumber: bank.routing_number, accountNumber: bank.account_number, bankName: bank.bank_name },
      ein,
      ssn,
    },
    { idempotencyKey: processorKey(ctx.op.key, 'account', merchantId) },
  );
  return account;
}

/**
 * Creates a `pending` merchant for the client from a parsed submission and emits
 * `merchant.onboarding` in the same transaction. SSN, EIN and the account number are kept only
 * encrypted, and so are the owner's date of birth, licence number and home address; the
 * merchant_key only as digest + ciphertext. With Stripe the connected account is made first (a
 * failure there stores nothing); the answer carries the agreement page's link (`agreement_link`),
 * and with SMTP configured the owner is emailed it.
 */
export async function onboardMerchant(ctx: Ctx, clientId: string, input: OnboardingInput): Promise<OnboardingResult> {
  const { BankingInfo: bank, BusinessInfo: business, OwnerInfo: owner, ProcessingInfo: processing } = input;
  const { ein: einPlain, ...businessRest } = business;
  const { ssn: ssnPlain, ...ownerRest } = owner;
  const id = newId.merchant();
  const merchantKey = newKey.merchant(ctx.env);
  const publicKey = newKey.public(ctx.env);
  const agreementToken = newAgreementToken();
  const link = agreementLink(ctx, agreementToken);
  const stripeAccountId = await connectedAccount(ctx, id, input);

  await inTransaction(ctx, async (tx, ctx) => {
    await tx.insert(merchants).values({
      id,
      clientId,
      status: 'pending',
      businessname: business.business_name,
      email: business.business_email,
      firstName: owner.first_name,
      lastName: owner.last_name,
      phonenumber: business.business_phone,
      website: business.website,
      merchantKeyHash: digest(merchantKey),
      merchantKeyEnc: ctx.vault.encrypt(merchantKey),
      publicKey,
      businessInfo: businessRest,
      ownerInfo: sealOwnerInfo(ctx.vault, ownerRest),
      processingInfo: processing,
      bankName: bank.bank_name,
      routingNumber: bank.routing_number,
      accountNumberEnc: ctx.vault.encrypt(bank.account_number),
      accountLast4: bank.account_number.slice(-4),
      einEnc: ctx.vault.encrypt(einPlain),
      ssnEnc: ctx.vault.encrypt(ssnPlain),
      ...DEFAULT_PRICING,
      joinDate: ctx.now(),
      stripeAccountId,
      agreementTokenHash: digest(agreementToken),
    });
    // Only through a real transport (SMTP): the sandbox inbox is the merchant's customers' messages,
    // and without SMTP the answer's agreement_link is how the link is handed on.
    if (ctx.messaging.providers?.includes('email')) {
      const email = agreementEmail({
        businessName: business.business_name,
        ownerName: `${owner.first_name} ${owner.last_name}`,
        link,
      });
      await queueMessage(
        { ...ctx, db: tx },
        {
          merchantId: id,
          channel: 'email',
          recipient: owner.email,
          subject: email.subject,
          bodyText: email.text,
          bodyHtml: email.html,
        },
      );
    }
    await recordEvent(
      { ...ctx, db: tx },
      {
        clientId,
        merchantId: id,
        type: 'merchant.onboarding',
        data: {
          merchant_key: merchantKey,
          merchant_id: id,
          business_name: business.business_name,
          email: business.business_email,
          public_key: publicKey,
        },
      },
      ctx.vault,
    );
  });

  return {
    businessname: business.business_name,
    email: business.business_email,
    merchant_key: merchantKey,
    public_key: publicKey,
    agreement_link: link,
    merchant_id: id,
  };
}
