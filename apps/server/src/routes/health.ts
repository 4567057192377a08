import type { App } from './types.js';

export function healthRoutes(app: App) {
  // Answers only once the app is built, which is after migrations applied.
  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));
}
