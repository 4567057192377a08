// Builds a framework wrapper's dist/ (@remit/react, @remit/vue): one ESM file with the loader's
// side-effect-free API bundled in (so installing the wrapper alone works) and the framework left
// as an import, plus the .d.ts files index.d.ts reaches, which must stand alone (only the framework
// may be imported from them). Run by each package's `prepack` and `build`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as esbuild from 'esbuild';

/**
 * @param {string} pkg the package's directory
 * @param {{ framework: string[], directive?: string }} opts `framework`: the peer packages left as imports;
 *   `directive`: a module directive of src/index.ts that must stay on dist/index.js's first line
 */
export async function buildWrapper(pkg, { framework, directive }) {
  const packages = dirname(pkg);
  const name = relative(packages, pkg);
  const out = mkdtempSync(join(tmpdir(), `remit-${name}-build-`));
  // Assembled beside dist/ and swapped in at the end, so a concurrent reader never sees half a build.
  const next = mkdtempSync(join(pkg, '.dist-'));
  try {
    await esbuild.build({
      entryPoints: [join(pkg, 'src/index.ts')],
      outfile: join(next, 'index.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2020',
      external: framework,
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
    });
    // Next.js's app router needs 'use client' first in the file the package exports.
    if (directive && !readFileSync(join(next, 'index.js'), 'utf8').startsWith(`"${directive}";`)) {
      throw new Error(`dist/index.js lost its '${directive}' directive`);
    }
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
        },
        files: [join(pkg, 'src/index.ts')],
      }),
    );
    const tsc = join(dirname(createRequire(join(pkg, 'package.json')).resolve('typescript/package.json')), 'bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
    copyDeclarations(join(out, 'types', name, 'src'), next, 'index.d.ts', framework);
    rmSync(join(pkg, 'dist'), { recursive: true, force: true });
    renameSync(next, join(pkg, 'dist'));
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(next, { recursive: true, force: true });
  }
}

/** Copies `file` and every declaration file it reaches by relative import; anything else it imports must be the framework. */
function copyDeclarations(from, to, file, framework, seen = new Set()) {
  if (seen.has(file)) return;
  seen.add(file);
  const text = readFileSync(join(from, file), 'utf8');
  mkdirSync(dirname(join(to, file)), { recursive: true });
  cpSync(join(from, file), join(to, file));
  for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
    if (spec.startsWith('.')) copyDeclarations(from, to, join(dirname(file), spec.replace(/\.js$/, '.d.ts')), framework, seen);
    else if (!framework.some((f) => spec === f || spec.startsWith(`${f}/`))) {
      throw new Error(`dist/${file} imports ${spec}: the published types may import only ${framework.join(', ')}`);
    }
  }
}
