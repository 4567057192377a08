/** The server's test harness, for other packages' tests (`@remit/server/testing`). */
export * from './harness.js';
export * from './fixtures.js';
export * from './payments.js';
export * from './process.js';
export * from './http.js';
