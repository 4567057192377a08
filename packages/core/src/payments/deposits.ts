import { DEPOSIT_PARTS, depositFields, errorMessage, MAX_CHECK_IMAGE_BYTES } from '@remit/contract';
import { checkDepositAccount } from '../check-deposits/accounts.js';
import { CHECK_IMAGE_TYPES } from '../check-deposits/images.js';
import type { CheckImage } from '../check-deposits/provider.js';
import { merchantNow } from '../clock.js';
import type { Ctx } from '../context.js';
import { transactions } from '../db/schema.js';
import { invalid, RemitError, type FieldError } from '../errors.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { formatAmount } from '../money.js';
import { ACH_BRAND, requireApproved } from './charges.js';
import { feeFor } from './fees.js';
import { stateColumns } from './state.js';

/**
 * `POST /merchant/remote_deposit_capture`: a check deposit goes to the check-deposit provider and
 * becomes a pending ACH transaction (in sandbox resolved like any other with `/update-ach`). The
 * images are kept in the database (`check_images`) and never served.
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
  new RemitError(
    'payload_too_large',
    `${part} is larger than ${MAX_CHECK_IMAGE_BYTES / 1024 / 1024} MB; send a smaller image.`,
  );

/** A deposit whose parts are all present and whose fields are valid; the merchant is not yet known. */
export interface ParsedDeposit {
  fields: ReturnType<typeof depositFields.parse>;
  upload: DepositUpload;
}

/** The multipart parts checked before anything else (the merchant_key among them is resolved at the edge). */
export function parseDepositUpload(upload: DepositUpload): ParsedDeposit {
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
    throw invalid(
      'invalid_request',
      `Invalid request. ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors,
    );
  }
  return { fields: parsed.data, upload };
}

export async function submitDeposit(
  ctx: Ctx,
  merchant: Merchant,
  { fields, upload }: ParsedDeposit,
): Promise<{ message: string; data: { transactionId: string; amount: string } }> {
  // No provider, no account with it: refused before anything is written or sent.
  const account = checkDepositAccount(ctx, merchant);
  if (!account || !ctx.checkDeposits) throw invalid('ach_account_not_found', ACH_ACCOUNT_NOT_FOUND_MESSAGE);
  requireApproved(merchant);
  if (fields.amount > merchant.maxAmountCents) {
    const message = `must be at most ${formatAmount(merchant.maxAmountCents)} for this merchant`;
    throw invalid('amount_over_limit', `amount ${message}.`, [{ path: 'amount', message }]);
  }
  const images = (['front_file', 'back_file'] as const).map((part): CheckImage => {
    const data = upload[part]!;
    if (data.length > MAX_CHECK_IMAGE_BYTES) throw tooLarge(part);
    const ext = imageType(data);
    if (!ext) {
      throw invalid('unsupported_image', `${part} must be a JPEG, PNG or TIFF image (checked by its content).`, [
        { path: part, message: 'must be a JPEG, PNG or TIFF image' },
      ]);
    }
    return { side: part === 'front_file' ? 'front' : 'back', data, contentType: CHECK_IMAGE_TYPES[ext]! };
  });

  const id = newId.transaction();
  const at = merchantNow(ctx.now, merchant);
  const fee = feeFor(merchant, 'ach', fields.amount);
  // The images first (a bucket that fails refuses the deposit), then the provider, as a charge is
  // authorized first, then the record: a refusal at any step leaves nothing. The key (our
  // transaction id) lets a vendor recognize a repeat.
  const staged = await ctx.checkImages.stage(id, images);
  const provider = ctx.checkDeposits;
  try {
    const { reference } = await provider.submit(
      { account, transactionId: id, amountCents: fields.amount, device: fields.device, images },
      { idempotencyKey: `remit_deposit_${id}` },
    );
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
        gatewayRef: reference,
        cardBrand: ACH_BRAND,
        depositInfo: { device: fields.device },
        createdAt: at,
        updatedAt: at,
      });
      await staged.record(tx);
    });
  } catch (e) {
    await staged.discard();
    throw e;
  }
  return { message: 'Check deposit submitted.', data: { transactionId: id, amount: formatAmount(fields.amount) } };
}
