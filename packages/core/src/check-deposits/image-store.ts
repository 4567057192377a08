import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.js';
import { checkImages } from '../db/schema.js';
import type { CheckImage } from './provider.js';

/**
 * Where a deposit's check images are kept: the database (`check_images`, the default) or an
 * S3-compatible bucket the operator sets (`s3-store.ts`). Either way every server reads them.
 */
export interface CheckImageStore {
  /** `database` or `s3:<bucket>`, for the logs and `remit config`. */
  readonly name: string;
  /**
   * Called before anything of the deposit is recorded: the bucket takes the images now (a failure
   * throws `check_images_unavailable` and leaves no object); the database keeps them with the deposit.
   */
  stage(transactionId: string, images: readonly CheckImage[]): Promise<StagedCheckImages>;
  /** The images of one deposit, front first; none for an unknown deposit. */
  read(db: Queryable, transactionId: string): Promise<CheckImage[]>;
}

export interface StagedCheckImages {
  /** Inside the deposit's own database transaction. */
  record(tx: Queryable): Promise<void>;
  /** The deposit was not recorded: whatever was stored goes (best effort). */
  discard(): Promise<void>;
}

/** The default: rows of `check_images`, written in the deposit's transaction, so a failed deposit leaves none. */
export const databaseCheckImageStore: CheckImageStore = {
  name: 'database',
  async stage(transactionId, images) {
    return {
      record: async (tx) => {
        await tx
          .insert(checkImages)
          .values(images.map((i) => ({ transactionId, side: i.side, contentType: i.contentType, data: i.data })));
      },
      discard: async () => undefined,
    };
  },
  read: (db, transactionId) => checkImagesInDatabase(db, transactionId),
};

export async function checkImagesInDatabase(db: Queryable, transactionId: string): Promise<CheckImage[]> {
  const rows = await db
    .select({ side: checkImages.side, contentType: checkImages.contentType, data: checkImages.data })
    .from(checkImages)
    .where(sql`${checkImages.transactionId} = ${transactionId}`)
    .orderBy(sql`${checkImages.side} = 'back'`);
  return rows.map((r) => ({ side: r.side, contentType: r.contentType, data: Buffer.from(r.data) }));
}
