import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { merchantForKey, merchantForPublicKey, sandboxOnly, type Client, type Ctx, type Merchant } from '@remit/core';
import { hookStep } from './hook-step.js';

/**
 * How a route's caller becomes a merchant, resolved once at the edge before the handler runs:
 * - `merchant_key`: the merchant's secret key, from the JSON or form body (a GET body included) or
 *   the query string, and it must belong to the client that authenticated (HTTP Basic);
 * - `public_key`: a publishable `pk_…` key from a browser (the widgets), accepted only from an
 *   `Origin` the merchant allowed.
 * Routes that act on no merchant (the merchant list, onboarding, webhooks) set nothing.
 */
export type CallerKind = 'merchant_key' | 'public_key';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Resolve `req.merchant` before the handler. */
    merchant?: CallerKind;
    /** A sandbox tool: refused in production (403) before its caller is looked at; the text names it. */
    sandboxOnly?: string;
  }
  interface FastifyRequest {
    /** The merchant the caller acts for; set on routes whose config names a `merchant` kind. */
    merchant: Merchant;
    /** On `public_key` routes: the caller's Origin, checked against the merchant's allowed origins. */
    widgetOrigin: string;
  }
}

export interface MerchantPluginOptions {
  /** The origins a merchant allows for its public key; none until widget settings say so. */
  allowedOrigins?: (merchant: Merchant) => Promise<readonly string[] | 'any'> | readonly string[] | 'any';
}

/** A field of the parsed body (JSON, form, or a GET body), else of the query string. */
export function callerField(req: FastifyRequest, name: string): unknown {
  const body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body) && name in body)
    return (body as Record<string, unknown>)[name];
  const query = req.query;
  if (query && typeof query === 'object') return (query as Record<string, unknown>)[name];
  return undefined;
}

/**
 * The merchant a `merchant_key` names among this client's; one 401 for unknown, malformed and foreign
 * keys. With the epoch the request's first statement read (auth.ts), a cached merchant may answer.
 */
export const merchantForClientKey = (
  ctx: Ctx,
  client: Client,
  merchantKey: unknown,
  seenEpoch?: number,
): Promise<Merchant> => merchantForKey(ctx, client.id, merchantKey, seenEpoch);

export function registerMerchant(app: FastifyInstance, ctx: Ctx, opts: MerchantPluginOptions = {}) {
  const allowedOrigins = opts.allowedOrigins ?? (() => []);
  app.decorateRequest('merchant', null as unknown as Merchant);
  app.decorateRequest('widgetOrigin', '');
  // preHandler: after the body is parsed and validated (a 400 still comes first) and after the
  // idempotency claim, so a replayed request answers what it answered the first time.
  // Synchronous on routes that name no merchant (no promise per request); the lookup is async.
  app.addHook('preHandler', (req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const config = req.routeOptions.config;
    if (config?.sandboxOnly && ctx.env !== 'sandbox') return done(sandboxOnly(config.sandboxOnly));
    const kind = config?.merchant;
    if (kind !== 'merchant_key' && kind !== 'public_key') return done();
    hookStep(resolveCaller(req, kind), done);
  });
  const resolveCaller = async (req: FastifyRequest, kind: CallerKind) => {
    // A keyed request's lookup runs in its operation's scope (idempotency.ts sets `req.ctx`).
    const scoped = req.ctx ?? ctx;
    if (kind === 'merchant_key') {
      req.merchant = await merchantForClientKey(
        scoped,
        req.client,
        callerField(req, 'merchant_key'),
        req.merchantEpoch,
      );
      return;
    }
    req.merchant = await merchantForPublicKey(
      scoped.db,
      callerField(req, 'public_key'),
      req.headers.origin,
      allowedOrigins,
    );
    req.widgetOrigin = req.headers.origin!;
  };
}
