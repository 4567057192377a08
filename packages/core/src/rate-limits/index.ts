export { createRateLimiter, type RateDecision, type RateLimiter, type RateRule } from './limiter.js';
export { Coalescer } from './coalesce.js';
export { addressKey, forwardedAddress, forwardedChain } from './address-key.js';
export { proxyRange, WIDEST_PROXY_PREFIX, type ProxyRange } from './trusted-proxies.js';
