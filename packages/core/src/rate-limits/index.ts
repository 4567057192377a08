export { createRateLimiter, type RateDecision, type RateLimiter, type RateRule } from './limiter.js';
export { Coalescer } from './coalesce.js';
export { addressKey } from './address-key.js';
