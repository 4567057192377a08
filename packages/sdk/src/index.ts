export { send, basicAuth, type HttpRequest, type HttpResponse } from './transport.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.js';
export { Remit, RemitApiError, type RemitOptions } from './client.js';
export type * from './types.js';
