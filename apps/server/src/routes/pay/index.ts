import type { Ctx } from '@remit/core';
import type { App } from '../types.js';
import { payApiRoutes } from './api.js';
import { payPageRoutes } from './page.js';
import { payReturnRoute } from './return.js';

export {
  APP_MARKER,
  DEFAULT_PAY_DIST,
  NOT_BUILT_MESSAGE,
  STATE_MARKER,
  fillPage,
  injectState,
  stateScript,
} from './page.js';
export { frameAncestors, payPageCsp } from './headers.js';

/** `/pay/{link_id}`, `/pay/card/{token}`, `/pay/assets/*` and the page's `/pay/api/*` calls; public. */
export const payRoutes = (distDir?: string) => (app: App, ctx: Ctx) => {
  payPageRoutes(app, ctx, distDir);
  payApiRoutes(app, ctx);
  payReturnRoute(app, ctx);
};
