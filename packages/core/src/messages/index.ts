export { queueMessage, type OutgoingMessage } from './outbox.js';
export {
  MessageDispatcher,
  startMessageDispatcher,
  htmlFromText,
  type MessageDispatcherOptions,
} from './dispatcher.js';
export { listSandboxMessages, parseListMessages } from './inbox.js';
export { smtpTransport, DEFAULT_EMAIL_FROM, type EmailTransport, type EmailMessage } from './transports/smtp.js';
export { SANDBOX_INBOX_STATUS, RejectedMessageError, type SmsConnector } from './transports/sms.js';
export {
  twilioConnector,
  twilioSettingsFromEnv,
  TWILIO_STATUS_PATH,
  type TwilioSettings,
} from './transports/twilio.js';
export { recordSmsStatus, type SmsStatusCallback } from './sms-status.js';
export { firstTries, FIRST_TRY_WAIT_MS, type Delivery } from './first-try.js';
export * from './templates.js';
export { receiptEmail, type ReceiptMessage } from './receipt.js';
export { defaultMessaging, deliverable, deliveryNote, unsentNote, type Channel, type Messaging } from './channels.js';
