import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedImageFile } from '@remit/core';
import { testDbKind } from '@remit/core/testing';

/**
 * A new REMIT_DATA_DIR whose embedded database is already made: the migrated image (core's
 * db/migrated-image.ts) unpacked into it, as PGlite would load it. A server or CLI then opens it in a
 * second instead of running initdb and every migration (five seconds, more under load). Tests of the
 * first start itself (main.test.ts) use an empty folder. On the Postgres pass the folder stays empty.
 */
export async function seededDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const image = testDbKind === 'pglite' ? await cachedImageFile() : null;
  if (image) execFileSync('tar', ['-xf', image, '-C', dir], { stdio: 'ignore' });
  return dir;
}
