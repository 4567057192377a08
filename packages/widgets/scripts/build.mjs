// Builds the widget chunk: dist/widgets.<content hash>.js (an IIFE, so the loader can add it as a
// nonce-carrying classic script) and dist/manifest.json naming it for the loader's build.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = await build({
  entryPoints: [here('../src/index.tsx')],
  bundle: true,
  write: false,
  format: 'iife',
  minify: true,
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const code = out.outputFiles[0].contents;
const file = `widgets.${createHash('sha256').update(code).digest('base64url').slice(0, 10)}.js`;
const dist = here('../dist');
mkdirSync(dist, { recursive: true });
for (const f of readdirSync(dist)) if (/^widgets\..*\.js$/.test(f)) rmSync(`${dist}/${f}`);
writeFileSync(`${dist}/${file}`, code);
writeFileSync(`${dist}/manifest.json`, JSON.stringify({ file }) + '\n');
console.log(`built dist/${file}`);
