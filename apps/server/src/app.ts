import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Core } from '@remit/core';
import { registerAuth } from './plugins/auth.js';
import { registerErrorHandling } from './plugins/errors.js';
import { registerGetBody } from './plugins/get-body.js';
import { frameworkErrors, registerInputGuards } from './plugins/input-guards.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { apiRoutes, payRoutes, publicRoutes, sandboxRoutes } from './routes/index.js';
import { openApiInfo, openApiServers } from './openapi.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** The built pay page (`apps/pay/dist` by default). */
  payDir?: string;
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

export async function buildApp(core: Core, opts: AppOptions = {}) {
  const { ctx } = core;
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    frameworkErrors,
    genReqId: () => `req_${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}`,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandling(app);
  // Bodies are JSON (or form-encoded where the spec allows it); a text body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { bodyLimit: 1024 * 1024 });
  await app.register(swagger, { openapi: openApiInfo(ctx), transform: jsonSchemaTransform });
  registerGetBody(app);
  registerInputGuards(app);

  for (const routes of [...publicRoutes, payRoutes(opts.payDir)]) routes(app, ctx);

  await app.register(
    async (api) => {
      registerAuth(api, ctx);
      registerIdempotency(api, ctx);
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => ({
        ...app.swagger(),
        servers: openApiServers(ctx),
      }));
      for (const routes of apiRoutes) routes(api, ctx);
    },
    { prefix: '/api/v1' },
  );

  await app.register(
    async (sandbox) => {
      registerAuth(sandbox, ctx);
      registerIdempotency(sandbox, ctx);
      for (const routes of sandboxRoutes) routes(sandbox, ctx);
    },
    { prefix: '/sandbox' },
  );

  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  await app.ready();
  return app;
}

export type RemitApp = Awaited<ReturnType<typeof buildApp>>;
