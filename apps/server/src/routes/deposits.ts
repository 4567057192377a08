import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { depositResponseSchema, errorEnvelopeSchema, errorResponses, MAX_CHECK_IMAGE_BYTES } from '@remit/contract';
import { parseDepositUpload, RemitError, submitDeposit, tooLarge, type Ctx, type DepositUpload } from '@remit/core';
import { ok } from './envelope.js';
import { merchantForClientKey } from '../plugins/merchant.js';
import { assertText } from '../plugins/input-guards.js';
import type { App } from './types.js';

const FILE_PARTS = new Set(['front_file', 'back_file']);
const FIELD_PARTS = new Set(['amount', 'merchant_key', 'device']);

/** Reads the multipart parts; files are buffered up to the limit, unknown parts are drained and ignored. */
async function readUpload(req: FastifyRequest): Promise<DepositUpload> {
  const upload: DepositUpload = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (FILE_PARTS.has(part.fieldname)) {
          upload[part.fieldname as 'front_file' | 'back_file'] = await part.toBuffer();
        } else {
          part.file.resume();
        }
      } else if (FIELD_PARTS.has(part.fieldname) && typeof part.value === 'string') {
        upload[part.fieldname as 'amount' | 'merchant_key' | 'device'] = part.value;
      }
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge('A check image');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new RemitError(
        'payload_too_large',
        'Too many multipart parts; send amount, merchant_key, device, front_file and back_file.',
      );
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw new RemitError('unsupported_media_type', 'Send the deposit as multipart/form-data.');
    }
    if (e instanceof RemitError) throw e;
    // Anything else the multipart parser throws (truncated body, bad boundary) is the sender's fault.
    throw new RemitError(
      'malformed_multipart',
      'Malformed multipart body; send amount, merchant_key, device, front_file and back_file as multipart/form-data.',
      { cause: e },
    );
  }
  return upload;
}

/** Remote deposit capture (spec: `POST /merchant/remote_deposit_capture`), multipart in its own scope. */
export function depositRoutes(app: App, _ctx: Ctx) {
  app.register(async (scope) => {
    // Registered here only, so no other route starts accepting multipart bodies.
    await scope.register(multipart, {
      limits: { fileSize: MAX_CHECK_IMAGE_BYTES, files: 4, fields: 10, parts: 14, fieldSize: 4096 },
    });
    scope.post(
      '/merchant/remote_deposit_capture',
      {
        schema: {
          tags: ['deposits'],
          summary: 'Submit a check deposit (front and back images)',
          description:
            'multipart/form-data with the parts amount, merchant_key, device, front_file and back_file, all required (400 names the missing ones). ' +
            `Images must be JPEG, PNG or TIFF, recognized by content; at most ${MAX_CHECK_IMAGE_BYTES / 1024 / 1024} MB each (413 payload_too_large above). ` +
            "The merchant needs an account at the server's check-deposit provider (the sandbox simulator opens one at approval; with a vendor the operator records it), else 400 ach_account_not_found; a server without a provider refuses every deposit so. " +
            'Creates a pending ACH transaction (in sandbox resolved with /update-ach); the images are kept in the database, never served.',
          consumes: ['multipart/form-data'],
          response: {
            200: depositResponseSchema,
            ...errorResponses,
            413: errorEnvelopeSchema.describe('An image is above the size limit'),
          },
        },
        // The whole upload is read before the Idempotency-Key is claimed (a preHandler), so the key
        // guards what was sent (fields and image digests), and an upload cut off midway claims nothing.
        preValidation: async (req) => {
          if (!req.isMultipart())
            throw new RemitError('unsupported_media_type', 'Send the deposit as multipart/form-data.');
          const upload = await readUpload(req);
          assertText(upload);
          req.body = upload;
        },
      },
      async (req) => {
        // The merchant_key is a multipart field: resolved here, once the parts are read and checked.
        const deposit = parseDepositUpload(req.body as DepositUpload);
        const merchant = await merchantForClientKey(req.ctx, req.client, deposit.fields.merchant_key);
        const { message, data } = await submitDeposit(req.ctx, merchant, deposit);
        return ok(message, data);
      },
    );
  });
}
