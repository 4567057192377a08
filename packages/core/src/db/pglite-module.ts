import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** PGlite's folder (its package.json and pglite.wasm), found from its entry. */
export function pgliteDir(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return join(dirname(entry), '..');
}

// Immutable once made: every PGlite of the process (a CLI's, a test worker's) starts from the one
// compiled module instead of compiling 9 MB of WebAssembly again (a second each).
let compiled: Promise<WebAssembly.Module> | undefined;

/** PGlite's WebAssembly, compiled once per process. */
export function compiledPglite(): Promise<WebAssembly.Module> {
  compiled ??= WebAssembly.compile(readFileSync(join(pgliteDir(), 'dist/pglite.wasm')));
  return compiled;
}
