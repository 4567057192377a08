import { isIP } from 'node:net';
import type Stripe from 'stripe';

/**
 * Wallets (Apple Pay, Google Pay) show in Stripe's Payment Element only on a domain registered with
 * Stripe (a payment method domain). Remit's charges are the platform's own (destination charges;
 * Stripe.js loaded with the platform's key), so the pay page's domain is registered on the platform
 * account: once, found again by name before anything is created (docs/going-live-stripe.md).
 */

/** What registering did: `created` at Stripe, `enabled` again (it was disabled), or already `registered`. */
export interface WalletDomain {
  domain: string;
  id: string;
  outcome: 'created' | 'enabled' | 'registered';
  /** Stripe's status of each wallet on the domain: `active`, or `inactive` with Stripe's reason. */
  apple_pay: string;
  google_pay: string;
}

/** The pay page's domain, from PUBLIC_URL: null where wallets cannot run (an IP address, localhost, a name without a dot). */
export function walletDomainOf(publicUrl: string): string | null {
  let host: string;
  try {
    host = new URL(publicUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (isIP(host.replace(/^\[|\]$/g, '')) || host === 'localhost' || host.endsWith('.localhost') || !host.includes('.'))
    return null;
  return host;
}

const walletStatus = (w: { status: string; status_details?: { error_message: string } }) =>
  w.status_details?.error_message ? `${w.status}: ${w.status_details.error_message}` : w.status;

/**
 * Registers `domain` unless Stripe has it: listed by name first, enabled if it was disabled, created
 * otherwise with a key derived from the name, so two servers starting at once make one.
 */
export async function registerWalletDomain(stripe: Stripe, domain: string): Promise<WalletDomain> {
  const [found] = (await stripe.paymentMethodDomains.list({ domain_name: domain, limit: 1 })).data;
  const outcome: WalletDomain['outcome'] = !found ? 'created' : found.enabled ? 'registered' : 'enabled';
  const d =
    outcome === 'created'
      ? await stripe.paymentMethodDomains.create(
          { domain_name: domain, enabled: true },
          { idempotencyKey: `remit_payment_method_domain_${domain}` },
        )
      : outcome === 'enabled'
        ? await stripe.paymentMethodDomains.update(found!.id, { enabled: true })
        : found!;
  return {
    domain,
    id: d.id,
    outcome,
    apple_pay: walletStatus(d.apple_pay),
    google_pay: walletStatus(d.google_pay),
  };
}
