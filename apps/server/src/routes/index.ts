import type { Ctx } from '@remit/core';
import type { App } from './types.js';
import { healthRoutes } from './health.js';
import { homeRoutes } from './home.js';
import { webhookRoutes } from './webhooks.js';
import { sandboxMessageRoutes } from './sandbox-messages.js';
import { merchantRoutes } from './merchants.js';
import { transactionRoutes } from './transactions.js';
import { payLinkRoutes } from './pay-links.js';
import { requestRoutes } from './requests.js';
import { customerRoutes } from './customers.js';
import { orderRoutes } from './orders.js';
import { preauthRoutes } from './preauth.js';
import { achRoutes } from './ach.js';
import { depositRoutes } from './deposits.js';
import { sandboxClockRoutes } from './sandbox.js';
import { widgetRoutes } from './widgets.js';
import { twilioStatusRoutes } from './twilio-status.js';
import { agreementRoutes } from './agreement/index.js';
import { verificationRoutes } from './verification/index.js';

export type Routes = (app: App, ctx: Ctx) => void;

/** No credentials: health, the sandbox portal, the hosted pages, providers' signed callbacks. */
export const publicRoutes: Routes[] = [
  healthRoutes,
  homeRoutes,
  twilioStatusRoutes,
  agreementRoutes,
  verificationRoutes,
];

export { portalRoutes } from './portal/index.js';

export { payRoutes } from './pay/index.js';

/** `/api/v1`, HTTP Basic. One module per section of the spec. */
export const apiRoutes: Routes[] = [
  merchantRoutes,
  payLinkRoutes,
  requestRoutes,
  customerRoutes,
  transactionRoutes,
  orderRoutes,
  preauthRoutes,
  achRoutes,
  depositRoutes,
  webhookRoutes,
  widgetRoutes,
];

/** `/sandbox`, HTTP Basic, sandbox only. */
export const sandboxRoutes: Routes[] = [sandboxMessageRoutes, sandboxClockRoutes];
