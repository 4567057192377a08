export { recordEvent, openPayload } from './outbox.js';
export {
  WebhookDispatcher,
  startWebhookDispatcher,
  type WebhookDispatcherOptions,
  type DispatcherLogger,
  type DeliveryOutcome,
} from './dispatcher.js';
export { signWebhook, webhookHeaders } from './signing.js';
export { canonicalHost, isBlockedAddress, isBlockedHostName, isLoopbackHost } from './address-guard.js';
export {
  listDeliveries,
  retryDelivery,
  parseListDeliveries,
  retryDelayMs,
  RETRY_SCHEDULE_SECONDS,
} from './deliveries.js';
