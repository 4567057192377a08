import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * The serializer of a hot route whose success answer the handler builds field by field from
 * core's views: a 200 goes out as built (JSON.stringify), not validated again against its zod
 * schema on every request (the zod serializer encodes, i.e. parses, the whole answer first).
 * Error answers keep the zod serializer. round-trips.test.ts parses each of these routes' answers
 * with its schema and requires it unchanged, so a view that drifts from the contract (a missing,
 * mistyped or extra field) fails there.
 */
export function serializeAsBuilt<S>(route: Parameters<FastifySerializerCompiler<S>>[0]): (data: unknown) => string {
  if (String(route.httpStatus) === '200') return (data) => JSON.stringify(data);
  return serializerCompiler(route as unknown as Parameters<typeof serializerCompiler>[0]);
}
