import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { and, inArray, sql } from 'drizzle-orm';
import { MAX_CHECK_IMAGE_BYTES } from '@remit/contract';
import type { Ctx } from '../context.js';
import { checkImages, transactions } from '../db/schema.js';

/**
 * Check images an earlier version kept as files under one server's data directory move into the
 * database (`check_images`) at start; where images are kept since is `image-store.ts`.
 */

/** The stored content type of each image kind the deposit accepts (`imageType`). */
export const CHECK_IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', tif: 'image/tiff' };

// Any constant both servers agree on: the lock that makes one of them do the move at a time.
const MOVE_LOCK = 0x52454d4954 /* "REMIT" */;
const LEGACY_NAME = /^(txn_[0-9A-Za-z]+)-(front|back)\.(jpg|png|tif)$/;

interface LegacyFile {
  path: string;
  transactionId: string;
  merchantId: string;
  side: 'front' | 'back';
  contentType: string;
}

/** Images an earlier version wrote under `<data dir>/deposits/<merchant_id>/<txn_id>-<side>.<ext>`. */
async function legacyFiles(filesDir: string): Promise<LegacyFile[]> {
  const root = join(filesDir, 'deposits');
  const merchantsDirs = await readdir(root, { withFileTypes: true }).catch(() => []);
  const found: LegacyFile[] = [];
  for (const m of merchantsDirs) {
    if (!m.isDirectory()) continue;
    for (const name of await readdir(join(root, m.name)).catch(() => [] as string[])) {
      const match = LEGACY_NAME.exec(name);
      if (match) {
        found.push({
          path: join(root, m.name, name),
          transactionId: match[1]!,
          merchantId: m.name,
          side: match[2] as 'front' | 'back',
          contentType: CHECK_IMAGE_TYPES[match[3]!]!,
        });
      }
    }
  }
  return found;
}

/**
 * Moves check images an earlier version kept under the data directory into the database, at
 * start. Servers starting together take turns (an advisory lock): the first moves the images, the
 * next finds them in the database and moves none. Moved files are removed once the database has
 * them; a file of no known deposit (or above the size cap) stays where it is. Answers how many
 * images this call moved and the files it left.
 */
export async function moveCheckImageFiles(
  ctx: Pick<Ctx, 'db' | 'filesDir'>,
): Promise<{ moved: number; left: string[] }> {
  if ((await legacyFiles(ctx.filesDir)).length === 0) return { moved: 0, left: [] };
  const { moved, done, left } = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MOVE_LOCK})`);
    // Listed again under the lock: another server may have moved them meanwhile.
    const files = await legacyFiles(ctx.filesDir);
    const ids = [...new Set(files.map((f) => f.transactionId))];
    const known =
      ids.length === 0
        ? []
        : await tx
            .select({ id: transactions.id, merchantId: transactions.merchantId })
            .from(transactions)
            .where(and(inArray(transactions.id, ids), sql`${transactions.paymentMethod} = 'ach'`));
    const owner = new Map(known.map((k) => [k.id, k.merchantId]));
    const done: LegacyFile[] = [];
    const left: string[] = [];
    let moved = 0;
    for (const f of files) {
      const data = owner.get(f.transactionId) === f.merchantId ? await readFile(f.path).catch(() => null) : null;
      if (!data || data.length > MAX_CHECK_IMAGE_BYTES) {
        left.push(f.path);
        continue;
      }
      const inserted = await tx
        .insert(checkImages)
        .values({ transactionId: f.transactionId, side: f.side, contentType: f.contentType, data })
        .onConflictDoNothing()
        .returning({ id: checkImages.transactionId });
      moved += inserted.length;
      done.push(f);
    }
    // The paths pointed into one server's directory; the images are now the rows of check_images.
    const movedIds = [...new Set(done.map((f) => f.transactionId))];
    if (movedIds.length > 0) {
      await tx
        .update(transactions)
        .set({ depositInfo: sql`${transactions.depositInfo} - 'front' - 'back'` })
        .where(inArray(transactions.id, movedIds));
    }
    return { moved, done, left };
  });
  // Removed only once the database holds them (committed above).
  for (const f of done) await rm(f.path, { force: true });
  for (const dir of new Set(done.map((f) => join(ctx.filesDir, 'deposits', f.merchantId))))
    await rmdir(dir).catch(() => undefined);
  await rmdir(join(ctx.filesDir, 'deposits')).catch(() => undefined);
  return { moved, left };
}
