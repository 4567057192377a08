import type { FastifyInstance } from 'fastify';
import { forwardedChain } from '@remit/core';

/**
 * Behind a trusted proxy the client address (`req.ip`, what every per-address limit counts) is read
 * from X-Forwarded-For. Each entry is made one address before that: `198.51.100.7:443` is
 * 198.51.100.7, and an entry that is not one address (`198.051.100.21`, `3325256727`) ends the list
 * there, so the trusted hop that passed it on is the client: spellings share one budget.
 */
export function registerForwardedFor(app: FastifyInstance) {
  app.addHook('onRequest', (req, _reply, done) => {
    const header = req.raw.headers['x-forwarded-for'];
    if (typeof header === 'string') {
      const chain = forwardedChain(header);
      if (chain) req.raw.headers['x-forwarded-for'] = chain;
      else delete req.raw.headers['x-forwarded-for'];
    }
    done();
  });
}
