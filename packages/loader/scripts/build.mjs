// Builds dist/dynamic-launch.js (an IIFE for the script tag) naming the widget chunk that
// packages/widgets built (its manifest.json): build the widgets first (the root build does).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const manifest = JSON.parse(readFileSync(here('../../widgets/dist/manifest.json'), 'utf8'));
// The chunk's integrity, so a page that pins the loader pins the chunk it adds too.
const chunk = readFileSync(here(`../../widgets/dist/${manifest.file}`));
const integrity = `sha384-${createHash('sha384').update(chunk).digest('base64')}`;

await build({
  entryPoints: [here('../src/launch.ts')],
  outfile: here('../dist/dynamic-launch.js'),
  bundle: true,
  format: 'esm', // the code is its own IIFE: esbuild's wrapper would be bytes of the budget for nothing
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  // No "use strict" prologue: the code does not depend on it, and the budget counts bytes.
  tsconfigRaw: { compilerOptions: { alwaysStrict: false, strict: false } },
  define: { __REMIT_CHUNK__: JSON.stringify(manifest.file), __REMIT_CHUNK_SRI__: JSON.stringify(integrity) },
});
console.log(`built dist/dynamic-launch.js (chunk ${manifest.file})`);
