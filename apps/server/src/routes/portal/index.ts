import type { Ctx } from '@remit/core';
import type { App } from '../types.js';
import { portalApiRoutes } from './api.js';
import { credentialRoutes } from './credentials.js';
import { portalPageRoutes } from './page.js';
import { guardPortalChanges } from './session.js';

export { DEFAULT_PORTAL_DIST, PORTAL_NOT_FOUND_HTML, PORTAL_VIEWS } from './page.js';
export { PORTAL_CSP } from './headers.js';

/**
 * The sandbox portal: `POST /portal/api/credentials` (both environments answer it: 403 in
 * production, as the operator contract has it), and in sandbox the page and its `/portal/api/*`
 * calls; in production every other `/portal` address is a 404 page. Every change under /portal
 * must come from the server's own origin (guardPortalChanges).
 */
export const portalRoutes = (distDir?: string) => (app: App, ctx: Ctx) => {
  guardPortalChanges(app, ctx);
  credentialRoutes(app, ctx);
  portalPageRoutes(app, ctx, distDir);
  if (ctx.env === 'sandbox') portalApiRoutes(app, ctx);
};
