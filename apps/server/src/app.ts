import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Core, Operator } from '@remit/core';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerGetBody } from './plugins/get-body.js';
import { registerHostGuard } from './plugins/host-guard.js';
import { registerForwardedFor } from './plugins/forwarded-for.js';
import { frameworkErrors, registerInputGuards } from './plugins/input-guards.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerReplicaReads } from './plugins/replica-reads.js';
import { registerMerchant } from './plugins/merchant.js';
import { parseQueryString } from './plugins/query-string.js';
import { QuietRouteLogs } from './plugins/quiet-log.js';
import { metricsRoutes, registerRequestMetrics, type Metrics } from './metrics.js';
import { serializeError, serializeRequest } from './plugins/log-safety.js';
import { registerNoStore, registerSecurityHeaders } from './plugins/security-headers.js';
import { apiRoutes, payRoutes, portalRoutes, publicRoutes, sandboxRoutes } from './routes/index.js';
import { openApiInfo, openApiServers } from './openapi.js';
import { widgetAssetRoutes, type WidgetAssetDirs } from './routes/widget-assets.js';
import { WIDGET_PREFIX, widgetApiRoutes } from './routes/widget-api.js';
import { stripeWebhookRoutes } from './routes/stripe-webhooks.js';
import { cspReportRoutes } from './routes/csp-reports.js';
import { embedRoutes } from './routes/embed.js';
import {
  databaseLimiter,
  DEFAULT_WIDGET_LIMITS,
  type WidgetLimiter,
  type WidgetLimits,
} from './plugins/widget-limits.js';
import { testingRoutes, type TestingControls } from './routes/testing.js';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.js';
import { DEFAULT_TIME_LIMITS, timeLimitOptions, type TimeLimits } from './time-limits.js';
import './plugins/rate-limit.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The built pay page (`apps/pay/dist` by default). */
  payDir?: string;
  /** The built loader and widget chunk (`packages/loader/dist`, `packages/widgets/dist` by default). */
  widgetAssets?: WidgetAssetDirs;
  /** The widget backend's rate limiter (default: the shared database limiter, ctx.rateLimiter). */
  widgetLimiter?: WidgetLimiter;
  /** The widget backend's rate and amount limits; default DEFAULT_WIDGET_LIMITS (the server reads them from REMIT_WIDGET_*). */
  widgetLimits?: WidgetLimits;
  /** The built portal (`apps/portal/dist` by default). */
  portalDir?: string;
  /** The rate limits; default DEFAULT_RATE_LIMITS (the server reads them from the environment). */
  rateLimits?: RateLimits;
  /** Fastify's `trustProxy`: whose `X-Forwarded-For` gives the client address; default none. */
  trustProxy?: boolean | string[];
  /** Request, header, keep-alive and idle time limits; default DEFAULT_TIME_LIMITS. */
  timeLimits?: TimeLimits;
  /** Prometheus metrics (`createMetrics`) and REMIT_METRICS_TOKEN; unset: no /metrics. */
  metrics?: { metrics: Metrics; token?: string };
  /** REMIT_OPERATOR_NAME and REMIT_OPERATOR_CONTACT: the provider named in merchants' SAQ A document. */
  operator?: Operator;
  /** The test kit's controls (`/testing`); only @remit/testing's sandboxes pass them, never `npm start`. */
  testing?: TestingControls;
}

/** Secrets never reach the log: credentials, keys and raw card data are redacted. */
export const REDACT = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'req.headers.api_key',
  // Pay page and customer bodies, should any log line ever carry one.
  'req.body.card.number',
  'req.body.card.cvc',
  'req.body.bank.account_number',
  'req.body.bank_account.account_number',
  'body.card.number',
  'body.card.cvc',
  'body.bank.account_number',
  'body.bank_account.account_number',
];

/** The server's pino options: the level, redaction of secrets, and where lines go (stdout by default). */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): NonNullable<AppOptions['logger']> {
  return {
    level,
    redact: REDACT,
    serializers: {
      req: serializeRequest,
      err: (e: Error) => serializeError(e) as { type: string; message: string; stack: string },
    },
    ...(stream ? { stream } : {}),
  };
}

export async function buildApp(core: Core, opts: AppOptions = {}) {
  const { ctx } = core;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    ...timeLimitOptions(opts.timeLimits ?? DEFAULT_TIME_LIMITS),
    frameworkErrors,
    logController: new QuietRouteLogs(),
    routerOptions: { querystringParser: parseQueryString },
    genReqId: () => `req_${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('rateLimits', opts.rateLimits ?? DEFAULT_RATE_LIMITS);
  if (opts.trustProxy) registerForwardedFor(app);
  registerErrorHandling(app, { processor: ctx.processor.name });
  registerReplicaReads(app, ctx);
  registerHostGuard(app, ctx);
  registerSecurityHeaders(app);
  if (opts.metrics) registerRequestMetrics(app, opts.metrics.metrics);
  // Draining (the server stopped listening): each answer closes its connection, so the client's
  // next request opens one to a process that is still running instead of finding this one gone.
  let listened = false;
  app.addHook('onListen', (done) => {
    listened = true;
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (listened && !app.server.listening) reply.header('connection', 'close');
    done(null, payload);
  });
  // Bodies are JSON (or form-encoded where the spec allows it); a text body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { bodyLimit: 1024 * 1024, parser: parseQueryString });
  await app.register(swagger, { openapi: openApiInfo(ctx), transform: jsonSchemaTransform });
  registerGetBody(app);
  registerInputGuards(app);

  if (opts.metrics) metricsRoutes(app, opts.metrics.metrics, { env: ctx.env, token: opts.metrics.token });
  for (const routes of [
    ...publicRoutes,
    portalRoutes(opts.portalDir),
    payRoutes(opts.payDir),
    widgetAssetRoutes(opts.widgetAssets),
  ])
    routes(app, ctx);

  // Stripe's events: verified by signature over the raw body, no HTTP Basic.
  await app.register((stripe) => stripeWebhookRoutes(stripe, ctx));

  // The widget backend: public key + Origin, its own CORS, no HTTP Basic.
  await app.register(
    (widget) => widgetApiRoutes(widget, ctx, { limiter: opts.widgetLimiter, limits: opts.widgetLimits }),
    { prefix: WIDGET_PREFIX },
  );

  // Merchants' pages' CSP violation reports: the public key in the path, their own body types and limits.
  await app.register((reports) =>
    cspReportRoutes({
      limits: opts.widgetLimits ?? DEFAULT_WIDGET_LIMITS,
      limiter: opts.widgetLimiter ?? databaseLimiter(ctx),
    })(reports, ctx),
  );

  await app.register(
    async (api) => {
      registerNoStore(api);
      registerAuth(api, ctx);
      registerIdempotency(api, ctx);
      registerMerchant(api, ctx);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => ({
        ...app.swagger(),
        servers: openApiServers(ctx),
      }));
      for (const routes of apiRoutes) routes(api, ctx);
      embedRoutes({ loaderDir: opts.widgetAssets?.loaderDir, operator: opts.operator })(api, ctx);
    },
    { prefix: '/api/v1' },
  );

  await app.register(
    async (sandbox) => {
      registerNoStore(sandbox);
      registerAuth(sandbox, ctx);
      registerIdempotency(sandbox, ctx);
      registerMerchant(sandbox, ctx);
      for (const routes of sandboxRoutes) routes(sandbox, ctx);
    },
    { prefix: '/sandbox' },
  );

  const testing = opts.testing;
  if (testing) {
    if (ctx.env !== 'sandbox') throw new Error('The /testing controls exist only in a sandbox');
    await app.register(
      async (t) => {
        registerNoStore(t);
        registerAuth(t, ctx);
        testingRoutes(t, ctx, testing);
      },
      { prefix: '/testing' },
    );
  }

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  await app.ready();
  return app;
}

export type RemitApp = Awaited<ReturnType<typeof buildApp>>;
