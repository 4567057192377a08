import type { Ctx } from '@remit/core';
import type { App } from './types.js';
import { healthRoutes } from './health.js';
import { portalRoutes } from './portal.js';

export type Routes = (app: App, ctx: Ctx) => void;

/** No credentials: health, the sandbox portal, the hosted pages. */
export const publicRoutes: Routes[] = [healthRoutes, portalRoutes];

/** `/api/v1`, HTTP Basic. One module per section of the spec. */
export const apiRoutes: Routes[] = [];

/** `/sandbox`, HTTP Basic, sandbox only. */
export const sandboxRoutes: Routes[] = [];
