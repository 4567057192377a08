import { eq } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { recordEvent } from '../webhooks/outbox.js';
import { randomToken } from '../ids.js';
import { digest } from '../secret-keys.js';
import { inTransaction } from '../operation.js';

/**
 * The merchant agreement: a hosted page of ours (`/agreement/{token}`) where the merchant's owner
 * reads and accepts it. The unguessable token in its address is the only credential, as a pay
 * link's id is. Acceptance records when, from which address and browser; with Stripe it reaches
 * the connected account as its `tos_acceptance`; it fires `documents.signed` once.
 */

const TOKEN = /^agr_[0-9A-Za-z]{32}$/;

export const newAgreementToken = () => `agr_${randomToken(32)}`;

export const agreementLink = (ctx: Pick<Ctx, 'publicUrl'>, token: string) => `${ctx.publicUrl}/agreement/${token}`;

export interface AgreementView {
  merchant_id: string;
  business_name: string;
  /** Stripe's Connected Account Agreement is part of what is accepted (REMIT_PROCESSOR=stripe). */
  stripe: boolean;
  /** ISO 8601 UTC, once accepted. */
  signed_at: string | null;
}

export interface Acceptance {
  accepted: boolean;
  ip: string;
  userAgent: string;
}

const notFound = () => new RemitError('agreement_not_found');

function byToken(token: string) {
  if (!TOKEN.test(token)) return null;
  return eq(merchants.agreementTokenHash, digest(token));
}

const viewOf = (ctx: Pick<Ctx, 'processor'>, row: typeof merchants.$inferSelect): AgreementView => ({
  merchant_id: row.id,
  business_name: row.businessname,
  stripe: ctx.processor.accounts !== undefined && row.stripeAccountId !== null,
  signed_at: row.agreementSignedAt?.toISOString() ?? null,
});

/** The agreement a token names, for its page. */
export async function agreementFor(ctx: Pick<Ctx, 'db' | 'processor'>, token: string): Promise<AgreementView> {
  const where = byToken(token);
  if (!where) throw notFound();
  const [row] = await ctx.db.select().from(merchants).where(where).limit(1);
  if (!row) throw notFound();
  return viewOf(ctx, row);
}

/**
 * Accepts the agreement once: the first acceptance is recorded, passed to Stripe (while the
 * merchant row is locked, so a failure there rolls it back and a retry asks again with the same
 * key) and fires `documents.signed`; a second one changes nothing and answers the first.
 */
export async function signAgreement(
  ctx: Ctx,
  token: string,
  acceptance: Acceptance,
): Promise<AgreementView & { already_signed: boolean }> {
  const where = byToken(token);
  if (!where) throw notFound();
  return inTransaction(ctx, async (tx, ctx) => {
    const [row] = await tx.select().from(merchants).where(where).for('update');
    if (!row) throw notFound();
    if (row.agreementSignedAt) return { ...viewOf(ctx, row), already_signed: true };
    if (!acceptance.accepted) {
      throw new RemitError('agreement_not_accepted', undefined, {
        errors: [{ path: 'accept', message: 'must be ticked to accept the agreement' }],
      });
    }
    const at = ctx.now();
    // Stripe keeps what a browser sends in a header; a very long one is cut, not refused.
    const userAgent = acceptance.userAgent.slice(0, 500);
    if (ctx.processor.accounts && row.stripeAccountId) {
      await ctx.processor.accounts.acceptTerms(row.stripeAccountId, { at, ip: acceptance.ip, userAgent });
    }
    const [signed] = await tx
      .update(merchants)
      .set({ agreementSignedAt: at, agreementIp: acceptance.ip, agreementUserAgent: userAgent })
      .where(eq(merchants.id, row.id))
      .returning();
    await recordEvent(
      { ...ctx, db: tx },
      {
        clientId: row.clientId,
        merchantId: row.id,
        type: 'documents.signed',
        data: {
          merchant_id: row.id,
          business_name: row.businessname,
          website: row.website,
          email: row.email,
          company_id: row.clientId,
        },
      },
    );
    return { ...viewOf(ctx, signed!), already_signed: false };
  });
}
