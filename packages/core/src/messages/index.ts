export { queueMessage, type OutgoingMessage } from './outbox.js';
export { MessageDispatcher, startMessageDispatcher, htmlFromText, type MessageDispatcherOptions } from './dispatcher.js';
export { listSandboxMessages, parseListMessages } from './inbox.js';
export { smtpTransport, DEFAULT_EMAIL_FROM, type EmailTransport, type EmailMessage } from './transports/smtp.js';
export { SANDBOX_INBOX_STATUS, type SmsConnector } from './transports/sms.js';
export * from './templates.js';
export { receiptEmail, type ReceiptMessage } from './receipt.js';
export { defaultMessaging, deliverable, unsentNote, type Channel, type Messaging } from './channels.js';
