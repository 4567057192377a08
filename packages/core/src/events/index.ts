export { recordEvent, openPayload } from './outbox.js';
export { EVENT_TYPES, type EventData, type EventType } from './catalog.js';
export { WebhookDispatcher, startWebhookDispatcher, type WebhookDispatcherOptions, type DispatcherLogger } from './dispatcher.js';
export { signWebhook, webhookHeaders } from './signing.js';
export { isBlockedAddress, isBlockedHostName } from './address-guard.js';
export {
  listDeliveries,
  retryDelivery,
  parseListDeliveries,
  listDeliveriesQuery,
  retryDelayMs,
  RETRY_SCHEDULE_SECONDS,
  DELIVERY_STATUSES,
  type DeliveryView,
  type DeliveryAttempt,
  type DeliveryPage,
} from './deliveries.js';
