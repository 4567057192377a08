import { walletDomainOf, type Ctx, type WalletDomain } from '@remit/core';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * At start, with a processor that shows wallets only on registered domains (Stripe): the host of
 * PUBLIC_URL is registered, once (found again at each start), so Apple Pay and Google Pay can show
 * on the pay page. A failure only logs: payments work without wallets, and
 * `npm run remit -- wallets register-domain` tries again.
 */
export async function registerPayPageDomain(
  ctx: Pick<Ctx, 'processor' | 'publicUrl'>,
  log: Log,
): Promise<WalletDomain | null> {
  const domain = walletDomainOf(ctx.publicUrl);
  if (!ctx.processor.registerWalletDomain || !domain) return null;
  try {
    const d = await ctx.processor.registerWalletDomain(domain);
    log.info({ provider: ctx.processor.name, ...d }, `the pay page's domain is registered for wallets (${d.outcome})`);
    return d;
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    log.warn(
      { provider: ctx.processor.name, domain, cause },
      "the pay page's domain could not be registered for wallets: Apple Pay and Google Pay will not show until `npm run remit -- wallets register-domain` succeeds",
    );
    return null;
  }
}
