import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { RemitError } from '../errors.js';
import type { CheckImageStore } from './image-store.js';
import { checkImagesInDatabase } from './image-store.js';
import type { CheckImage } from './provider.js';

export interface S3CheckImageSettings {
  bucket: string;
  /** An S3-compatible service (MinIO, R2, …), addressed path-style; unset: AWS S3. */
  endpoint?: string;
  region: string;
  /** Put before every key, e.g. `remit/check-images/`. */
  prefix: string;
  /** Unset: the SDK's own credential chain (instance or task roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

const SIDES = ['front', 'back'] as const;

/**
 * Check images as objects `<prefix><transaction id>/<side>` in a bucket. A deposit uploads them
 * before it is recorded, so a recorded deposit always has its images; a deposit refused later
 * removes what it uploaded. Images recorded in `check_images` before the bucket was set are read
 * from there.
 */
export function createS3CheckImageStore(settings: S3CheckImageSettings): CheckImageStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.endpoint !== undefined,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: several S3-compatible services refuse the newer default headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    // A bucket that stops answering fails the deposit in seconds instead of holding the request.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000 },
  });
  const key = (transactionId: string, side: string) => `${settings.prefix}${transactionId}/${side}`;
  const remove = (transactionId: string) =>
    Promise.allSettled(
      SIDES.map((side) =>
        client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key(transactionId, side) })),
      ),
    );

  return {
    name: `s3:${settings.bucket}`,
    async stage(transactionId, images) {
      const put = await Promise.allSettled(
        images.map((i) =>
          client.send(
            new PutObjectCommand({
              Bucket: settings.bucket,
              Key: key(transactionId, i.side),
              Body: i.data,
              ContentType: i.contentType,
            }),
          ),
        ),
      );
      const failed = put.find((p): p is PromiseRejectedResult => p.status === 'rejected');
      if (failed) {
        await remove(transactionId);
        throw new RemitError('check_images_unavailable', undefined, { cause: failed.reason });
      }
      return { record: async () => undefined, discard: async () => void (await remove(transactionId)) };
    },
    async read(db, transactionId) {
      const found: CheckImage[] = [];
      for (const side of SIDES) {
        try {
          const o = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key(transactionId, side) }));
          found.push({
            side,
            contentType: o.ContentType ?? 'application/octet-stream',
            data: Buffer.from(await o.Body!.transformToByteArray()),
          });
        } catch (e) {
          if (!(e instanceof NoSuchKey)) throw new RemitError('check_images_unavailable', undefined, { cause: e });
        }
      }
      return found.length > 0 ? found : checkImagesInDatabase(db, transactionId);
    },
  };
}
