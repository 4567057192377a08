export { createCredentials, authenticateClient, type Client, type Credentials } from './credentials.js';
export {
  updateWebhookUrl,
  updateWebhookUrlBody,
  checkWebhookUrl,
  MAX_WEBHOOK_URL_LENGTH,
  type UpdateWebhookUrlInput,
  type WebhookRegistration,
} from './webhooks.js';
