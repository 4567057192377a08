export {
  createCredentials,
  rotateClientSecret,
  confirmClient,
  authenticateClient,
  verifyCredentials,
  claimedClientId,
  clientAddressKey,
  type Client,
  type Credentials,
} from './credentials.js';
export {
  updateWebhookUrl,
  checkWebhookUrl,
  rotateWebhookSecret,
  type RotatedWebhookSecret,
  type WebhookRegistration,
} from './webhooks.js';
