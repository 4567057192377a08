/** The server's test harness, for other packages' tests (`@remit/server/testing`). */
export * from './harness.js';
export * from './fixtures.js';
export * from './payments.js';
export * from './process.js';
export * from './http.js';
export * from './log-scan.js';
export { portalSignIn, type PortalClient } from './portal.js';
export { DEFAULT_RATE_LIMITS, generousRateLimits, parseRateRule, type RateLimits } from '../rate-limits.js';
