import type { FastifyInstance } from 'fastify';
import {
  addressKey,
  authenticateClient,
  claimedClientId,
  clientAddressKey,
  confirmClient,
  isRemitError,
  MERCHANT_EPOCH,
  type Client,
  type Ctx,
} from '@remit/core';
import { rateLimited } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    client: Client;
    /**
     * The merchants' epoch read by this request's first statement, against which a cached
     * merchant is checked; undefined when no statement ran (limits off).
     */
    merchantEpoch: number | undefined;
  }
}

const LOCKED = 'Too many failed authentications';

/**
 * HTTP Basic on every route of the scope, checked before the body is looked at. Failures count
 * per claimed client id and address together, and per address; past either limit that address
 * gets 429 (even for the right secret, so guessing learns nothing) until the window ends. A client
 * id is no secret (it is the Basic user name and a webhook's `company_id`), so failures never
 * lock a client out at an address that has not failed. A client then counts its requests.
 */
export function registerAuth(app: FastifyInstance, ctx: Ctx) {
  const limits = app.rateLimits;
  app.decorateRequest('client', null as unknown as Client);
  app.decorateRequest('merchantEpoch', undefined);
  const epoch = MERCHANT_EPOCH;
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.public) return;
    const address = addressKey(req.ip);
    let client: Client;
    try {
      client = await authenticateClient(ctx, req.headers.authorization);
    } catch (err) {
      if (!isRemitError(err) || err.code !== 'unauthorized') throw err;
      const claimed = claimedClientId(req.headers.authorization);
      const [byClient, byAddress] = await Promise.all([
        claimed
          ? ctx.rateLimiter.consume(limits.authFailuresPerClientAddress, clientAddressKey(claimed, address))
          : null,
        ctx.rateLimiter.consume(limits.authFailuresPerAddress, address),
      ]);
      if (byClient && !byClient.allowed)
        throw rateLimited(reply, byClient, `${LOCKED} for this client id from this address`);
      if (!byAddress.allowed) throw rateLimited(reply, byAddress, `${LOCKED} from this address`);
      throw err;
    }
    // One round trip: is this id or address locked out by failures; if not, count the request. It
    // also reads the merchants' epoch, so the merchant this request names can come from the cache.
    const { lockedBy, decision, read } = await ctx.rateLimiter.consumeUnless(
      limits.apiPerClient,
      client.id,
      [
        { rule: limits.authFailuresPerClientAddress, key: clientAddressKey(client.id, address) },
        { rule: limits.authFailuresPerAddress, key: address },
      ],
      epoch,
    );
    if (lockedBy === 0) throw rateLimited(reply, decision, `${LOCKED} for this client id from this address`);
    if (lockedBy === 1) throw rateLimited(reply, decision, `${LOCKED} from this address`);
    if (!decision.allowed) throw rateLimited(reply, decision, 'Too many requests for this client');
    // A secret rotated by another process since this one cached the old digest is refused here.
    await confirmClient(ctx, req.headers.authorization, typeof read === 'number' ? read : undefined);
    req.client = client;
    if (typeof read === 'number') req.merchantEpoch = read;
  });
}
