import * as z from 'zod';

/**
 * The envelopes around every answer. Most endpoints answer `{result, message, data}`; the
 * webhook-management endpoints and `/approve-merchant` answer `status` instead of `result`, as
 * the spec writes.
 */

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** `{result: true, message, data}`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ result: z.literal(true), message: z.string(), data });
export type Envelope<T> = { result: true; message: string; data: T };

/** `{result: true, message}`: success without data. */
export const messageEnvelopeSchema = z.object({ result: z.literal(true), message: z.string() });
export type MessageEnvelope = z.infer<typeof messageEnvelopeSchema>;

/** `{status: true, message}`. */
export const statusEnvelopeSchema = z.object({ status: z.literal(true), message: z.string() });
export type StatusEnvelope = z.infer<typeof statusEnvelopeSchema>;

/** `{status: true, message, data}`. */
export const statusEnvelope = <T extends z.ZodType>(data: T) => statusEnvelopeSchema.extend({ data });

/** The error envelope every Remit failure answers. */
export const errorEnvelopeSchema = z
  .object({
    result: z.literal(false),
    message: z.string(),
    code: z.string(),
    errors: z.array(fieldErrorSchema).optional(),
    request_id: z.string(),
  })
  .describe('Error envelope');
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** The error envelope of the `status`-style endpoints. */
export const statusErrorEnvelopeSchema = z
  .object({
    status: z.literal(false),
    message: z.string(),
    code: z.string(),
    errors: z.array(fieldErrorSchema).optional(),
    request_id: z.string(),
  })
  .describe('Error envelope (webhook management)');
export type StatusErrorEnvelope = z.infer<typeof statusErrorEnvelopeSchema>;

/** A card decline (HTTP 402) also names the declined transaction, recorded with is_status 3. */
export const declineEnvelopeSchema = errorEnvelopeSchema
  .extend({ transaction_id: z.string().describe('the declined transaction, recorded with is_status 3') })
  .describe(
    'Card declined; `code` is card_declined, insufficient_funds, expired_card, incorrect_cvc or authentication_required',
  );
export type DeclineEnvelope = z.infer<typeof declineEnvelopeSchema>;

/** Error responses every authenticated route may give. */
export const errorResponses = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema } as const;
export const statusErrorResponses = { 400: statusErrorEnvelopeSchema, 401: statusErrorEnvelopeSchema } as const;
