/**
 * The check-deposit port: remote deposit capture goes to a provider of its own, apart from the card
 * processor (Stripe takes no checks). The sandbox simulator implements it; a real remote-deposit
 * vendor implements the same interface and is chosen with REMIT_CHECK_DEPOSITS, the API unchanged.
 */
import { newId, randomToken } from '../ids.js';
import type { Env } from '../environment.js';
import type { Keyed } from '../processor/connector.js';

export interface CheckImage {
  side: 'front' | 'back';
  contentType: string;
  data: Buffer;
}

export interface CheckDepositInput {
  /** The merchant's account at this provider (`merchants.ach_provider_id`). */
  account: string;
  /** Our transaction id for the deposit. */
  transactionId: string;
  amountCents: number;
  device: string;
  images: readonly CheckImage[];
}

export interface CheckDepositProvider {
  /** Recorded with each merchant's account: an account counts only with the provider that holds it. */
  readonly name: string;
  /**
   * Opens the merchant's account when the merchant is approved, for a provider that does that
   * itself (the simulator). Without it the operator records the account (`remit merchants
   * check-deposit-account`).
   */
  openAccount?(merchantId: string): Promise<string>;
  /**
   * Hands the deposit over; the answer is the provider's reference for it (the transaction's
   * gateway_ref). The deposit stays pending until the provider's result resolves it (`resolveAch`).
   * A throw stores nothing.
   */
  submit(deposit: CheckDepositInput, opts: Keyed): Promise<{ reference: string }>;
}

/**
 * The sandbox's provider: accepts every deposit and leaves it pending for `POST /update-ach`, and
 * opens an account for each merchant at approval.
 */
export function createCheckDepositSimulator(): CheckDepositProvider {
  return {
    name: 'simulator',
    openAccount: async () => `achp_${randomToken()}`,
    submit: async () => ({ reference: newId.gatewayRef() }),
  };
}

/** What REMIT_CHECK_DEPOSITS may name (a vendor's connector adds its name here). */
export const CHECK_DEPOSIT_PROVIDERS = ['simulator', 'none'] as const;

/**
 * The provider a configuration names; unset: the simulator in sandbox, none in production (deposits
 * refused with `ach_account_not_found`). The simulator accepts checks no bank will clear, so
 * production refuses to start with it.
 */
export function createCheckDepositProvider(name: string | undefined, env: Env): CheckDepositProvider | null {
  const chosen = name === undefined || name === '' ? (env === 'sandbox' ? 'simulator' : 'none') : name;
  if (!(CHECK_DEPOSIT_PROVIDERS as readonly string[]).includes(chosen)) {
    throw new Error(`REMIT_CHECK_DEPOSITS must be one of ${CHECK_DEPOSIT_PROVIDERS.join(', ')}, not ${chosen}`);
  }
  if (chosen === 'simulator' && env === 'production') {
    throw new Error(
      'REMIT_CHECK_DEPOSITS=simulator is the sandbox simulator and clears no real checks; production needs a remote-deposit provider or none',
    );
  }
  return chosen === 'simulator' ? createCheckDepositSimulator() : null;
}
