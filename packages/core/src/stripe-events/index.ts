export { receiveStripeEvent, type StripeEventOutcome } from './receive.js';
export { STRIPE_SIGNATURE_TOLERANCE_S } from './entry.js';
