export { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, IDEMPOTENCY_TTL_MS, type IdempotencyClaim } from './idempotency.js';
