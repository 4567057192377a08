export { queueMessage, type OutgoingMessage } from './outbox.js';
