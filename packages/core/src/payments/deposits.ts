import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEPOSIT_PARTS, depositFields, errorMessage, MAX_CHECK_IMAGE_BYTES } from '@remit/contract';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { transactions } from '../db/schema.js';
import { invalid, RemitError, type FieldError } from '../errors.js';
import { newId } from '../ids.js';
import { merchantForKey } from '../merchants/merchant-key.js';
import { formatAmount } from '../money.js';
import { ACH_BRAND, requireApproved } from './charges.js';
import { feeFor } from './fees.js';
import { stateColumns } from './state.js';

/**
 * `POST /merchant/remote_deposit_capture`: a check deposit becomes a pending ACH transaction
 * (resolved like any other with `/update-ach`). The images are kept under the data directory,
 * `deposits/<merchant_id>/<txn_id>-front.<ext>`, and never served.
 */

export const ACH_ACCOUNT_NOT_FOUND_MESSAGE = errorMessage('ach_account_not_found');

/** The multipart parts as the edge read them; any may be missing. */
export interface DepositUpload {
  amount?: string;
  merchant_key?: string;
  device?: string;
  front_file?: Buffer;
  back_file?: Buffer;
}

const MAGIC: Array<{ ext: string; bytes: number[] }> = [
  { ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
  { ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { ext: 'tif', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { ext: 'tif', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
];

/** The image type by its first bytes (never the file name), or null. */
export function imageType(data: Buffer): string | null {
  return MAGIC.find((m) => m.bytes.every((b, i) => data[i] === b))?.ext ?? null;
}

export const tooLarge = (part: string) =>
  new RemitError('payload_too_large', `${part} is larger than ${MAX_CHECK_IMAGE_BYTES / 1024 / 1024} MB; send a smaller image.`);

export async function submitDeposit(
  ctx: Ctx,
  clientId: string,
  upload: DepositUpload,
): Promise<{ message: string; data: { transactionId: string; amount: string } }> {
  const missing = DEPOSIT_PARTS.filter((p) => upload[p] === undefined || upload[p]?.length === 0);
  if (missing.length > 0) {
    throw invalid(
      'missing_part',
      `Missing multipart part${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}. All of amount, merchant_key, device, front_file and back_file are required.`,
      missing.map((path) => ({ path, message: 'is required' })),
    );
  }
  const parsed = depositFields.safeParse(upload);
  if (!parsed.success) {
    const errors: FieldError[] = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw invalid('invalid_request', `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, errors);
  }
  const fields = parsed.data;
  const merchant = await merchantForKey(ctx.db, clientId, fields.merchant_key);
  if (!merchant.achProviderId) throw invalid('ach_account_not_found', ACH_ACCOUNT_NOT_FOUND_MESSAGE);
  requireApproved(merchant);
  if (fields.amount > merchant.maxAmountCents) {
    const message = `must be at most ${formatAmount(merchant.maxAmountCents)} for this merchant`;
    throw invalid('amount_over_limit', `amount ${message}.`, [{ path: 'amount', message }]);
  }
  const images = (['front_file', 'back_file'] as const).map((part) => {
    const data = upload[part]!;
    if (data.length > MAX_CHECK_IMAGE_BYTES) throw tooLarge(part);
    const ext = imageType(data);
    if (!ext) {
      throw invalid('unsupported_image', `${part} must be a JPEG, PNG or TIFF image (checked by its content).`, [
        { path: part, message: 'must be a JPEG, PNG or TIFF image' },
      ]);
    }
    return { side: part === 'front_file' ? 'front' : 'back', data, ext };
  });

  const id = newId.transaction();
  const at = merchantNow(ctx.now, merchant);
  const dir = join(ctx.filesDir, 'deposits', merchant.id);
  const files = images.map((img) => ({ ...img, path: join(dir, `${id}-${img.side}.${img.ext}`) }));
  const fee = feeFor(merchant, 'ach', fields.amount);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(transactions).values({
        id,
        merchantId: merchant.id,
        type: 'Sale',
        paymentMethod: 'ach',
        ...stateColumns('pending'),
        amountCents: fields.amount,
        feeCents: fee.feeCents,
        feeRateE7: fee.rateE7,
        netCents: fee.netCents,
        orderCreatedfrom: 'API',
        gatewayRef: newId.gatewayRef(),
        cardBrand: ACH_BRAND,
        depositInfo: {
          device: fields.device,
          front: `deposits/${merchant.id}/${id}-front.${files[0]!.ext}`,
          back: `deposits/${merchant.id}/${id}-back.${files[1]!.ext}`,
        },
        createdAt: at,
        updatedAt: at,
      });
      // Written before commit: a failed write rolls the transaction back.
      for (const f of files) await writeFile(f.path, f.data, { mode: 0o600 });
    });
  } catch (e) {
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
    throw e;
  }
  return { message: 'Check deposit submitted.', data: { transactionId: id, amount: formatAmount(fields.amount) } };
}
