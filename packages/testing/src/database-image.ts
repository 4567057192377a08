// The database every sandbox starts from: PGlite's data directory right after initdb and the
// migrations, as a tar (dumpDataDir). Loading it takes a fraction of a second where initdb and the
// migrations take several (docs/benchmarks.md, "Test kit"). The package ships one built with it
// (scripts/build.mjs); it is used only if made from the same migrations and PGlite version as the
// code that loads it, else one is made once and kept in the system's temporary folder.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, type DatabaseImage } from '@remit/core';

/** Where the package's image is (beside the bundle); absent when run from the repository's sources. */
const SHIPPED = { tar: 'pgdata.tar.gz', key: 'pgdata.key' };

/** PGlite's folder (its package.json and pglite.wasm), found from its entry. */
function pgliteDir(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return join(dirname(entry), '..');
}

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
 * sandbox keeps its copy in memory): WAL segments of 1 MB, not 16, and no template databases
 * (nothing in a sandbox creates a database), 15 MB instead of 42, a third of the files.
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

/** The build's step: the image and its key beside the bundle, gzipped (15 MB of tar, mostly empty pages, in 2 MB). */
export async function writeShippedImage(dir: string): Promise<void> {
  writeFileSync(join(dir, SHIPPED.tar), gzipSync(await buildImage(), { level: 9 }));
  writeFileSync(join(dir, SHIPPED.key), `${imageKey()}\n`);
}

/** Set when the shipped image did not load: this process makes its own from then on. */
let shippedFailed = false;

function shippedImage(key: string): Uint8Array | null {
  if (shippedFailed) return null;
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const keyFile = join(dir, SHIPPED.key);
  if (!existsSync(keyFile) || readFileSync(keyFile, 'utf8').trim() !== key) return null;
  return gunzipSync(readFileSync(join(dir, SHIPPED.tar)));
}

/** Made here once, for every later process with the same key (written whole, then renamed). */
async function cachedImage(key: string): Promise<Uint8Array> {
  const file = join(tmpdir(), `remit-sandbox-${key.slice(0, 24)}.tar`);
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

/** Forgets an image that would not load (a cached one cut short, a shipped one this PGlite cannot read): the next is made here. */
export function dropImage(): void {
  shippedFailed = true;
  rmSync(join(tmpdir(), `remit-sandbox-${imageKey().slice(0, 24)}.tar`), { force: true });
  loaded = undefined;
}

let loaded: Promise<DatabaseImage> | undefined;

/** The image and PGlite's compiled WebAssembly: read and compiled once per process, shared by every sandbox. */
export function sandboxImage(): Promise<DatabaseImage> {
  loaded ??= (async () => {
    const key = imageKey();
    const tar = shippedImage(key) ?? (await cachedImage(key));
    const wasmModule = await WebAssembly.compile(readFileSync(join(pgliteDir(), 'dist/pglite.wasm')));
    return { tar, wasmModule };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
