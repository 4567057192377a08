export { recordEvent } from './outbox.js';
export { EVENT_TYPES, type EventData, type EventType } from './catalog.js';
