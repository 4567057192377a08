// A migrated database as an image: PGlite's data directory right after initdb and every migration,
// as a tar (dumpDataDir). Loading one takes a fraction of a second where initdb and the migrations
// take seconds; the test kit's sandboxes and the suite's test servers start from one.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from './connect.js';
import type { DatabaseImage } from './database-image.js';
import { pgliteDir } from './pglite-module.js';

/** Bumped when buildImage makes a different image from the same migrations. */
const IMAGE_FORMAT = '4';

/**
 * What an image depends on: how it is made, PGlite's release line and every migration (name and
 * text). The line, not the exact version: a merchant's install may resolve a later patch, whose
 * PostgreSQL reads the same data directory (a 0.x minor is where PGlite may change it).
 */
export function imageKey(): string {
  const hash = createHash('sha256').update(IMAGE_FORMAT);
  const version: string = JSON.parse(readFileSync(join(pgliteDir(), 'package.json'), 'utf8')).version;
  hash.update(version.split('.').slice(0, 2).join('.'));
  for (const name of readdirSync(migrationsFolder)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(`\n${name}\n`).update(readFileSync(join(migrationsFolder, name)));
  return hash.digest('hex');
}

/**
 * initdb, the migrations, a checkpoint, the tar. Smaller is faster to load and lighter to hold (each
 * database keeps its copy in memory): WAL segments of 1 MB, not 16, and no template databases
 * (nothing started from an image creates a database), 15 MB instead of 42, a third of the files.
 */
export async function buildImage(): Promise<Uint8Array> {
  const pg = new PGlite({ initDbStartParams: ['--wal-segsize=1'] });
  try {
    await migrate(drizzle(pg), { migrationsFolder });
    await pg.exec(`ALTER DATABASE template0 IS_TEMPLATE false; ALTER DATABASE template1 IS_TEMPLATE false`);
    await pg.exec('DROP DATABASE template0');
    await pg.exec('DROP DATABASE template1');
    // What the server's maintenance would do at each start (db/maintenance.ts), done once here.
    await pg.exec('VACUUM ANALYZE');
    await pg.exec('CHECKPOINT');
    return new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer());
  } finally {
    await pg.close();
  }
}

function cacheFile(key: string): string {
  return join(tmpdir(), `remit-sandbox-${key.slice(0, 24)}.tar`);
}

/** Made here once, for every later process with the same key (written whole, then renamed). */
export async function cachedImage(key: string = imageKey()): Promise<Uint8Array> {
  const file = cacheFile(key);
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const tar = await buildImage();
  const part = `${file}.${process.pid}.part`;
  try {
    writeFileSync(part, tar);
    renameSync(part, file);
  } catch {
    rmSync(part, { force: true }); // a read-only temp folder: the next process makes its own
  }
  return tar;
}

/** Forgets the cached image (one cut short, say): the next cachedImage() makes it again. */
export function dropCachedImage(): void {
  rmSync(cacheFile(imageKey()), { force: true });
}

/** The cached image's file (made first if need be, never read here), or null where the temporary folder cannot keep it. */
export async function cachedImageFile(): Promise<string | null> {
  const file = cacheFile(imageKey());
  if (!existsSync(file)) await cachedImage();
  return existsSync(file) ? file : null;
}

// Read once per process: every test database of the process starts from the same bytes.
let loaded: Promise<DatabaseImage> | undefined;

/** The cached image, loaded once per process: what test servers and test cores start from. */
export function migratedImage(): Promise<DatabaseImage> {
  loaded ??= cachedImage().then((tar) => ({ tar }));
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
