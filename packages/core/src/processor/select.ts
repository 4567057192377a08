import type { Env } from '../environment.js';
import type { Processor } from './connector.js';
import { createSimulator } from './simulator.js';
import { createStripeProcessor } from './stripe.js';
import { createUnavailableProcessor } from './unavailable.js';

/** What REMIT_PROCESSOR may name. */
export const PROCESSOR_NAMES = ['simulator', 'stripe', 'none'] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

/** REMIT_PROCESSOR unset: the simulator in sandbox; in production none, so payments are refused. */
export const defaultProcessorName = (env: Env): ProcessorName => (env === 'sandbox' ? 'simulator' : 'none');

/** The processors' settings from the environment (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, REMIT_STRIPE_API_URL). */
export type ProcessorEnv = Partial<
  Record<
    | 'STRIPE_SECRET_KEY'
    | 'STRIPE_WEBHOOK_SECRET'
    | 'REMIT_STRIPE_API_URL'
    | 'STRIPE_PUBLISHABLE_KEY'
    | 'REMIT_STRIPE_JS_URL',
    string
  >
>;

/**
 * The processor a configuration names. The simulator approves test cards without moving money,
 * so a production server refuses to start with it rather than take payments it cannot make.
 * Stripe works in both environments (a sandbox on Stripe's test mode with test keys).
 */
export function createProcessor(name: string | undefined, env: Env, settings: ProcessorEnv = {}): Processor {
  const chosen = name === undefined || name === '' ? defaultProcessorName(env) : name;
  if (!(PROCESSOR_NAMES as readonly string[]).includes(chosen)) {
    throw new Error(`REMIT_PROCESSOR must be one of ${PROCESSOR_NAMES.join(', ')}, not ${chosen}`);
  }
  if (chosen === 'simulator' && env === 'production') {
    throw new Error(
      'REMIT_PROCESSOR=simulator is the sandbox simulator and cannot process live payments; production needs a real connector',
    );
  }
  if (chosen === 'stripe') {
    const secretKey = settings.STRIPE_SECRET_KEY ?? '';
    const publishableKey = settings.STRIPE_PUBLISHABLE_KEY ?? '';
    // Every missing setting at once, one per line: the operator fixes them in one go.
    const missing = [
      !/^(sk|rk)_(live|test)_\S+$/.test(secretKey) &&
        'REMIT_PROCESSOR=stripe needs STRIPE_SECRET_KEY, a Stripe secret key (sk_live_… or sk_test_…)',
      env === 'production' &&
        !settings.STRIPE_WEBHOOK_SECRET &&
        'REMIT_PROCESSOR=stripe in production needs STRIPE_WEBHOOK_SECRET (whsec_…): ACH results and approvals arrive as Stripe events',
      env === 'production' &&
        !/^pk_(live|test)_\S+$/.test(publishableKey) &&
        'REMIT_PROCESSOR=stripe in production needs STRIPE_PUBLISHABLE_KEY (pk_live_…): card details are entered in Stripe.js on the pay page',
    ].filter(Boolean);
    if (missing.length > 0) throw new Error(missing.join('\n'));
    return createStripeProcessor({
      publishableKey,
      jsUrl: settings.REMIT_STRIPE_JS_URL || undefined,
      secretKey,
      webhookSecret: settings.STRIPE_WEBHOOK_SECRET || undefined,
      apiUrl: settings.REMIT_STRIPE_API_URL || undefined,
    });
  }
  return chosen === 'simulator' ? createSimulator() : createUnavailableProcessor();
}
