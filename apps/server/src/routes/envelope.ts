import { z } from 'zod';

/** Success envelope: `{result: true, message, data}`. */
export const ok = <T>(message: string, data: T) => ({ result: true as const, message, data });

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ result: z.literal(true), message: z.string(), data });

export const errorSchema = z
  .object({
    result: z.literal(false),
    message: z.string(),
    code: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    request_id: z.string(),
  })
  .describe('Error envelope');

/** Error responses every authenticated route may give, for the OpenAPI document. */
export const errorResponses = { 400: errorSchema, 401: errorSchema } as const;
