/**
 * @remit/testing: a whole Remit sandbox in the test's own process (startSandbox), for a
 * merchant's CI. Browser helpers are in @remit/testing/playwright, the fake loader for component
 * tests in @remit/testing/dom.
 */
export {
  startSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxMerchant,
  type MerchantFields,
  type Credentials,
  type SandboxClock,
  type VerificationState,
} from './sandbox.js';
export type { Webhooks, ReceivedWebhook, WebhookWhere } from './webhook-receiver.js';
export type { Messages, SandboxMessage } from './inbox.js';
export type { ForcedOutcome } from './outcomes.js';
export type { Duration } from './duration.js';
export { testCards, type TestCard } from './test-cards.js';
