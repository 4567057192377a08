export {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  IDEMPOTENCY_TTL_MS,
  IDEMPOTENCY_LEASE_MS,
  type IdempotencyClaim,
} from './idempotency.js';
