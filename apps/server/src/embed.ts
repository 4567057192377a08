/** The server as a library, for a process that hosts it (the test kit, @remit/testing): the app factory and its limits. */
export { buildApp, loggerOptions, type AppOptions, type RemitApp } from './app.js';
export { generousRateLimits, type RateLimits } from './rate-limits.js';
export type { TestingControls } from './routes/testing.js';
