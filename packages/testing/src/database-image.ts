// The database every sandbox starts from: PGlite's data directory right after initdb and the
// migrations, as a tar (dumpDataDir). Loading it takes a fraction of a second where initdb and the
// migrations take several (docs/benchmarks.md, "Test kit"). The package ships one built with it
// (scripts/build.mjs); it is used only if made from the same migrations and PGlite version as the
// code that loads it, else one is made once and kept in the system's temporary folder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildImage, cachedImage, dropCachedImage, imageKey, type DatabaseImage } from '@remit/core';

export { imageKey };

/** Where the package's image is (beside the bundle); absent when run from the repository's sources. */
const SHIPPED = { tar: 'pgdata.tar.gz', key: 'pgdata.key' };

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

/** Forgets an image that would not load (a cached one cut short, a shipped one this PGlite cannot read): the next is made here. */
export function dropImage(): void {
  shippedFailed = true;
  dropCachedImage();
  loaded = undefined;
}

let loaded: Promise<DatabaseImage> | undefined;

/** The image, read once per process and shared by every sandbox (PGlite's WebAssembly is compiled once per process by core). */
export function sandboxImage(): Promise<DatabaseImage> {
  loaded ??= (async () => {
    const key = imageKey();
    return { tar: shippedImage(key) ?? (await cachedImage(key)) };
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
