import { and, eq, gt } from 'drizzle-orm';
import type { Verification, VerificationLink } from '@remit/contract';
import type { Ctx } from '../context.js';
import { merchants, verificationLinks } from '../db/schema.js';
import { RemitError } from '../errors.js';
import { randomToken } from '../ids.js';
import { inTransaction } from '../operation.js';
import { digest } from '../secret-keys.js';
import { MERCHANT_NOT_FOUND_MESSAGE } from './merchants.js';
import { refreshAccount } from './refresh-account.js';
import { accountOf, recordVerification, verificationView } from './verification.js';

/**
 * `POST /merchant/verification-link`: an address on Remit's origin (`/verify/{token}`), valid for
 * days, that the platform hands to its merchant. Each visit mints a fresh Stripe Account Link (they
 * are single-use and short-lived) and redirects to it; Stripe's `refresh_url` is the same address,
 * its `return_url` Remit's return page, which reads the account again. In the sandbox (no Stripe
 * account) the address opens Remit's own page of what is due, where a tester submits it. The token
 * is the only credential: kept as its SHA-256 digest, never stored.
 */

export const VERIFICATION_LINK_DAYS = 7;
const TOKEN = /^vfy_[0-9A-Za-z]{32}$/;

export const verificationPath = (token: string) => `/verify/${token}`;

const notFound = () => new RemitError('verification_link_not_found');

export async function createVerificationLink(
  ctx: Ctx,
  clientId: string,
  input: { merchant_id: string; return_url?: string },
): Promise<VerificationLink> {
  const [m] = await ctx.db
    .select({ id: merchants.id })
    .from(merchants)
    .where(and(eq(merchants.id, input.merchant_id), eq(merchants.clientId, clientId)))
    .limit(1);
  if (!m) throw new RemitError('merchant_not_found', MERCHANT_NOT_FOUND_MESSAGE);
  const token = `vfy_${randomToken(32)}`;
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + VERIFICATION_LINK_DAYS * 86_400_000);
  await ctx.db.insert(verificationLinks).values({
    tokenHash: digest(token),
    merchantId: m.id,
    returnUrl: input.return_url ?? null,
    expiresAt,
    createdAt: now,
  });
  return { url: `${ctx.publicUrl}${verificationPath(token)}`, expires_at: expiresAt.toISOString() };
}

/** What Remit's verification pages show. */
export interface VerificationPageView {
  business_name: string;
  verification: Verification;
  /** The platform's page to continue to; null when none was given. */
  return_url: string | null;
  /** A sandbox merchant without a Stripe account: the page lets a tester submit what is due. */
  can_submit: boolean;
}

async function linkOf(ctx: Pick<Ctx, 'db' | 'now'>, token: string) {
  if (!TOKEN.test(token)) throw notFound();
  const [found] = await ctx.db
    .select({ link: verificationLinks, merchant: merchants })
    .from(verificationLinks)
    .innerJoin(merchants, eq(merchants.id, verificationLinks.merchantId))
    .where(and(eq(verificationLinks.tokenHash, digest(token)), gt(verificationLinks.expiresAt, ctx.now())))
    .limit(1);
  if (!found) throw notFound();
  return found;
}

const stripeAccountOf = (ctx: Pick<Ctx, 'processor'>, m: { stripeAccountId: string | null }) =>
  ctx.processor.accounts && m.stripeAccountId ? m.stripeAccountId : null;

function pageView(
  ctx: Pick<Ctx, 'env' | 'processor'>,
  link: { returnUrl: string | null },
  m: typeof merchants.$inferSelect,
): VerificationPageView {
  return {
    business_name: m.businessname,
    verification: verificationView(m),
    return_url: link.returnUrl,
    can_submit: ctx.env === 'sandbox' && stripeAccountOf(ctx, m) === null,
  };
}

/**
 * `GET /verify/{token}` (also Stripe's `refresh_url`): a fresh Account Link to redirect to, asking
 * for what the account has due (`account_onboarding`), or letting the merchant review what was
 * given when nothing is (`account_update`). Without a Stripe account: Remit's own page.
 */
export async function openVerificationLink(
  ctx: Ctx,
  token: string,
): Promise<{ redirect: string } | { page: VerificationPageView }> {
  const { link, merchant } = await linkOf(ctx, token);
  const account = stripeAccountOf(ctx, merchant);
  if (!account) return { page: pageView(ctx, link, merchant) };
  const a = accountOf(merchant);
  const due =
    !a.charges_enabled ||
    a.currently_due.length + a.past_due.length + a.eventually_due.length + a.errors.length > 0 ||
    a.upcoming.eventually_due.length > 0;
  const here = `${ctx.publicUrl}${verificationPath(token)}`;
  const made = await ctx.processor.accounts!.link(account, {
    type: due ? 'onboarding' : 'update',
    refreshUrl: here,
    returnUrl: `${here}/return`,
    fields: a.eventually_due.length > 0 ? 'eventually_due' : 'currently_due',
    includeUpcoming: a.upcoming.eventually_due.length > 0,
  });
  return { redirect: made.url };
}

/**
 * `GET /verify/{token}/return`: the merchant is back from Stripe, having finished or not. The
 * account is read again (approving the merchant only if Stripe now enables charges), and the page
 * shows what is still due, or that Stripe is reviewing.
 */
export async function returnFromVerification(ctx: Ctx, token: string): Promise<VerificationPageView> {
  const { link, merchant } = await linkOf(ctx, token);
  if (!stripeAccountOf(ctx, merchant)) return pageView(ctx, link, merchant);
  return inTransaction(ctx, async (tx, ctx) => {
    await refreshAccount(tx, ctx, merchant.id);
    const [now] = await tx.select().from(merchants).where(eq(merchants.id, merchant.id));
    return pageView(ctx, link, now!);
  });
}

/**
 * The sandbox page's form: the tester sends what is due. Nothing is asked for any more and charges
 * follow the merchant's approval again (an approved merchant reads `complete`).
 */
export async function submitSandboxVerification(ctx: Ctx, token: string): Promise<void> {
  const { link, merchant } = await linkOf(ctx, token);
  if (!pageView(ctx, link, merchant).can_submit) {
    throw new RemitError('sandbox_only', 'Only a sandbox merchant without a Stripe account is verified on this page.');
  }
  await inTransaction(ctx, async (tx, ctx) => {
    const [row] = await tx.select().from(merchants).where(eq(merchants.id, merchant.id)).for('update');
    await recordVerification(tx, ctx, row!, null);
  });
}
