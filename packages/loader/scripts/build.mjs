// Builds dist/dynamic-launch.js (an IIFE for the script tag) naming the widget chunk that
// packages/widgets built (its manifest.json): build the widgets first (the root build does).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const manifest = JSON.parse(readFileSync(here('../../widgets/dist/manifest.json'), 'utf8'));

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
  define: { __REMIT_CHUNK__: JSON.stringify(manifest.file) },
});
console.log(`built dist/dynamic-launch.js (chunk ${manifest.file})`);
