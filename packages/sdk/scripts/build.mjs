// Builds dist/: the SDK's JS and .d.ts, with the contract's declarations bundled under
// dist/contract/ so the package stands alone (the SDK uses the contract for types only; zod is
// its one dependency, for those types). Run by `npm pack` (prepack) and by the pack test.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = join(sdk, '..');
const dist = join(sdk, 'dist');
const out = mkdtempSync(join(tmpdir(), 'remit-sdk-build-'));
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
      noUncheckedIndexedAccess: true,
      // Straight to the source: found through node_modules, tsc 7 sometimes treats the contract's files
      // as an external library and emits only its index (a race seen under load).
      paths: { '@remit/contract': [join(packages, 'contract/src/index.ts')] },
      skipLibCheck: true,
      declaration: true,
      rootDir: packages,
      outDir: join(out, 'js'),
      types: [],
    },
    // Every contract file, the subpath ones too (locales, widget messages), not only those its index reaches.
    files: [
      join(sdk, 'src/index.ts'),
      ...readdirSync(join(packages, 'contract/src'))
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
        .map((f) => join(packages, 'contract/src', f)),
    ],
  }),
);
const tsc = join(dirname(createRequire(join(sdk, 'package.json')).resolve('typescript/package.json')), 'bin/tsc');
// Assembled beside dist/ and swapped in at the end, so a concurrent reader never sees half a build.
const next = mkdtempSync(join(sdk, '.dist-'));
try {
  execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
  cpSync(join(out, 'js/sdk/src'), next, { recursive: true });
  // The CommonJS entry: loads the ES module where require() can, else says how to import it.
  for (const f of ['require.cjs', 'require.d.cts']) cpSync(join(sdk, 'src', f), join(next, f));
  cpSync(join(out, 'js/contract/src'), join(next, 'contract'), { recursive: true, filter: (f) => !f.endsWith('.js') });
  for (const f of readdirSync(join(packages, 'contract/src'))) {
    if (
      f.endsWith('.ts') &&
      !f.endsWith('.test.ts') &&
      !existsSync(join(next, 'contract', f.replace(/\.ts$/, '.d.ts')))
    ) {
      throw new Error(`the build lacks contract/${f.replace(/\.ts$/, '.d.ts')}`);
    }
  }
  fixSpecifiers(next);
  // The old build is moved aside before it is removed, so two builds at once never rm into each other.
  if (existsSync(dist)) renameSync(dist, `${next}.old`);
  renameSync(next, dist);
  rmSync(`${next}.old`, { recursive: true, force: true });
} finally {
  rmSync(out, { recursive: true, force: true });
  rmSync(next, { recursive: true, force: true });
}

function fixSpecifiers(dir) {
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (name.endsWith('.d.ts')) {
      writeFileSync(file, readFileSync(file, 'utf8').replaceAll("'@remit/contract'", "'./contract/index.js'"));
    } else if (name.endsWith('.js') && readFileSync(file, 'utf8').includes('@remit/contract')) {
      throw new Error(`${name} imports @remit/contract at run time; the SDK may use it for types only`);
    }
  }
}
