// Builds what the @remit/loader package ships (dist/index.js, dist/index.d.ts, dist/contract/):
// loadRemit() and its types, standing alone. The contract is used for types only, so its
// declarations are bundled under dist/contract/ (zod, a public package, is their one import).
// Run by `npm run build` and `npm pack` (prepack); dist/dynamic-launch.js is the server's, not shipped.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const loader = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(loader, '..');
const dist = join(loader, 'dist');
// Beside dist/, so the finished files move in by rename (a temp dir may be another file system).
const out = mkdtempSync(join(loader, '.dist-'));
const contractFiles = readdirSync(join(packages, 'contract/src')).filter(
  (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
);
try {
  await build({
    entryPoints: [join(loader, 'src/pure.ts')],
    outfile: join(out, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (/@remit\//.test(readFileSync(join(out, 'index.js'), 'utf8')))
    throw new Error('dist/index.js imports a workspace package at run time');
  const config = join(out, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        strict: true,
        skipLibCheck: true,
        declaration: true,
        emitDeclarationOnly: true,
        rootDir: packages,
        outDir: join(out, 'types'),
        types: [],
        paths: { '@remit/contract': [join(packages, 'contract/src/index.ts')] },
      },
      files: [join(loader, 'src/pure.ts'), ...contractFiles.map((f) => join(packages, 'contract/src', f))],
    }),
  );
  const tsc = join(dirname(createRequire(join(loader, 'package.json')).resolve('typescript/package.json')), 'bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
  const types = readFileSync(join(out, 'types/loader/src/pure.d.ts'), 'utf8').replaceAll(
    "'@remit/contract'",
    "'./contract/index.js'",
  );
  writeFileSync(join(out, 'index.d.ts'), types);
  cpSync(join(out, 'types/contract/src'), join(out, 'contract'), { recursive: true });
  // Swapped in piece by piece beside dynamic-launch.js, which the server reads from the same folder.
  mkdirSync(dist, { recursive: true });
  for (const f of ['index.js', 'index.d.ts']) renameSync(join(out, f), join(dist, f));
  rmSync(join(dist, 'contract'), { recursive: true, force: true });
  renameSync(join(out, 'contract'), join(dist, 'contract'));
  console.log('built dist/index.js, dist/index.d.ts and dist/contract/ (the package)');
} finally {
  rmSync(out, { recursive: true, force: true });
}
