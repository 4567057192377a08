export type { Processor, CardInput, CardBrand, AuthorizeResult } from './connector.js';
export { createSimulator, TEST_CARDS, AUTHENTICATION_REQUIRED } from './simulator.js';
export { createUnavailableProcessor, PROCESSOR_UNAVAILABLE_MESSAGE } from './unavailable.js';
export { sandboxAchOutcome, type AchOutcome } from './sandbox-bank.js';
export { PROCESSOR_NAMES, createProcessor, defaultProcessorName, type ProcessorName } from './select.js';
export type { Keyed, CardToken, Decline, BankDebitInput, MandateAcceptance, PaymentLookup } from './connector.js';
export { OutcomeUnknown, ProcessorUnreachable } from './connector.js';
export { processorKey } from './keys.js';
export { REFUSABLE_OPERATIONS, type RefusableOperation } from './deferred.js';
export {
  createStripeProcessor,
  stripeClient,
  stripeDecline,
  type StripeProcessor,
  type StripeSettings,
} from './stripe.js';
export type { ProcessorEnv } from './select.js';
export { walletDomainOf, type WalletDomain } from './wallet-domains.js';
