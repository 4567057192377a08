export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventOf,
  type EventType,
  type EventData,
} from './webhooks.js';
export {
  Remit,
  RemitApiError,
  type RemitOptions,
  type CallOptions,
  type FilePart,
  type RemoteDepositRequest,
} from './client.js';
export { basicAuth, type Fetch } from './transport.js';
/** Every request and response shape of the API, from the wire contract. */
export type * from '@remit/contract';
