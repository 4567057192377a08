export { claimIdempotencyKey, completeIdempotencyKey, IDEMPOTENCY_TTL_MS, type IdempotencyClaim } from './idempotency.js';
