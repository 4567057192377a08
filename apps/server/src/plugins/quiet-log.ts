import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Asked every few seconds (health probes, metric scrapes, the portal's polls): request lines at debug, not info. */
    quietLog?: boolean;
  }
}

const quiet = (req: FastifyRequest) => req.routeOptions?.config?.quietLog === true;

/**
 * Fastify's request lines ("incoming request", "request completed"), at debug for quiet routes, so
 * probes and polls do not fill an info log. Errors of any route stay at their level.
 */
export class QuietRouteLogs extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (quiet(request)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && quiet(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply);
  }
}
