// Builds a framework wrapper's dist/ (@remit/react, @remit/vue): one ESM file with
// @remit/wrapper-core and the loader's side-effect-free API bundled in (so installing the wrapper
// alone works) and the framework left as an import, plus the .d.ts files index.d.ts reaches, which
// must stand alone: only the framework may be imported from them, and the shared published types
// (@remit/wrapper-core/types) are copied in as dist/types.d.ts. Run by each package's `prepack` and `build`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import * as esbuild from 'esbuild';

/** Packages whose declarations dist/ carries itself: the import → the emitted file (under the packages folder) → its name in dist/. */
const INLINED = { '@remit/wrapper-core/types': { emitted: 'wrapper-core/src/types.d.ts', as: 'types.d.ts' } };

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
      // The loader from source: its package exports its own build, which need not exist yet.
      plugins: [
        {
          name: 'remit-loader-source',
          setup: (b) =>
            b.onResolve({ filter: /^@remit\/loader$/ }, () => ({ path: join(packages, 'loader/src/pure.ts') })),
        },
      ],
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
          // Straight to the source (as packages/sdk's build does): tsc then emits their declarations too.
          paths: Object.fromEntries(
            Object.entries(INLINED).map(([spec, f]) => [spec, [join(packages, f.emitted.replace(/\.d\.ts$/, '.ts'))]]),
          ),
        },
        files: [join(pkg, 'src/index.ts')],
      }),
    );
    const tsc = join(dirname(createRequire(join(pkg, 'package.json')).resolve('typescript/package.json')), 'bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
    copyDeclarations(join(out, 'types'), join(name, 'src'), next, 'index.d.ts', framework);
    rmSync(join(pkg, 'dist'), { recursive: true, force: true });
    renameSync(next, join(pkg, 'dist'));
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(next, { recursive: true, force: true });
  }
}

/**
 * Copies `file` (under `from`/`dir`) and every declaration file it reaches by relative import; an
 * INLINED import is copied beside it and its specifier made relative; anything else it imports must
 * be the framework.
 */
function copyDeclarations(from, dir, to, file, framework, seen = new Set()) {
  if (seen.has(file)) return;
  seen.add(file);
  let text = readFileSync(join(from, dir, file), 'utf8');
  for (const [, spec] of text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)) {
    const inlined = INLINED[spec];
    if (inlined) {
      copyDeclarations(from, dirname(inlined.emitted), to, inlined.as, framework, seen);
      text = text.replaceAll(
        `'${spec}'`,
        `'${relative(dirname(join('/', file)), join('/', inlined.as))
          .replace(/^(?!\.)/, './')
          .replace(/\.d\.ts$/, '.js')}'`,
      );
    } else if (spec.startsWith('.'))
      copyDeclarations(from, dir, to, join(dirname(file), spec.replace(/\.js$/, '.d.ts')), framework, seen);
    else if (!framework.some((f) => spec === f || spec.startsWith(`${f}/`))) {
      throw new Error(`dist/${file} imports ${spec}: the published types may import only ${framework.join(', ')}`);
    }
  }
  mkdirSync(dirname(join(to, file)), { recursive: true });
  writeFileSync(join(to, file), text);
}
