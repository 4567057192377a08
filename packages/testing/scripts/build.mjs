// Builds @remit/testing into dist/: the kit's entries (index, bin, playwright, dom) as ES modules
// with the server, the core and every npm package they use compiled in, except the embedded
// database (@electric-sql/pglite: its WebAssembly files are found beside it), the API docs page
// (@fastify/swagger-ui: it serves files of its own folder) and playwright-core
// (the test's own). Beside them: the files the server finds by path at run time (the database
// thread, the migrations) and the pages it serves (pay page, portal, loader, widget chunk), copied
// from their builds (`npm run build` at the root first).
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '../..');
const dist = join(pkg, 'dist');

/** Run time dependencies left as imports: they must be the package's dependencies or peers. */
export const EXTERNAL = ['@electric-sql/pglite', '@fastify/swagger-ui', 'playwright-core'];

/**
 * Packages only a production set-up calls (Twilio, SMTP, S3, Stripe): the sandbox runs the
 * simulator and keeps messages in its inbox, so they are left out (twilio alone is 8 MB) and
 * stand-ins say so if anything ever calls them.
 */
const NOT_IN_SANDBOX = /^(twilio|nodemailer|stripe|@aws-sdk\/[^/]+)(\/.*)?$/;
const sandboxOnly = {
  name: 'sandbox-only',
  setup(b) {
    b.onResolve({ filter: NOT_IN_SANDBOX }, (args) => ({ path: args.path, namespace: 'not-in-sandbox' }));
    b.onLoad({ filter: /.*/, namespace: 'not-in-sandbox' }, (args) => ({
      loader: 'js',
      contents: `const fail = () => { throw new Error(${JSON.stringify(`${args.path} is not part of the @remit/testing sandbox`)}); };
const stub = () => new Proxy(function () {}, { get: (_t, key) => (key === '__esModule' ? false : key === 'then' ? undefined : stub()), apply: fail, construct: fail });
module.exports = stub();`,
    }));
  },
};

const pages = {
  pay: join(root, 'apps/pay/dist'),
  portal: join(root, 'apps/portal/dist'),
  loader: join(root, 'packages/loader/dist'),
  widgets: join(root, 'packages/widgets/dist'),
};
for (const [name, dir] of Object.entries(pages)) {
  if (!existsSync(dir))
    throw new Error(`@remit/testing: ${name} is not built (${dir}); run npm run build at the repository root first`);
}

await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: {
    index: 'src/index.ts',
    bin: 'src/bin.ts',
    playwright: 'src/playwright.ts',
    dom: 'src/dom.ts',
    // Not exported: this script runs it to make the database image below.
    'database-image': 'src/database-image.ts',
  },
  absWorkingDir: pkg,
  outdir: dist,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL.flatMap((p) => [p, `${p}/*`]),
  // CommonJS packages compiled in call require() for Node's modules and read __dirname: give them both.
  banner: {
    js: [
      "import { createRequire as __remitRequire } from 'node:module';",
      "import { fileURLToPath as __remitPath } from 'node:url';",
      'const require = __remitRequire(import.meta.url);',
      'const __filename = __remitPath(import.meta.url);',
      "const __dirname = __remitPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  chunkNames: 'chunk-[hash]',
  plugins: [sandboxOnly],
  legalComments: 'none',
  logLevel: 'warning',
});

// Files found beside the bundle by `new URL(…, import.meta.url)` (chunks sit in dist/ too).
const core = join(root, 'packages/core/src/db');
for (const base of [dist]) {
  await mkdir(base, { recursive: true });
  for (const f of ['pglite-worker.mjs', 'message-batch.mjs', 'raw-protocol.mjs'])
    await cp(join(core, f), join(base, f));
  await cp(join(core, 'migrations'), join(base, 'migrations'), { recursive: true });
}
for (const [name, dir] of Object.entries(pages)) await cp(dir, join(dist, 'pages', name), { recursive: true });

// The migrated database every sandbox starts from (src/database-image.ts), made by the bundle just
// built, from the migrations just copied: its key says which, and a sandbox checks it before use.
const image = await import(pathToFileURL(join(dist, 'database-image.js')).href);
await image.writeShippedImage(dist);

// Types: each entry's declarations, emitted file by file from the annotated sources. What they
// reach may import only each other and playwright-core (never a workspace package).
const typed = [
  'index',
  'sandbox',
  'outcomes',
  'duration',
  'inbox',
  'webhook-receiver',
  'test-cards',
  'playwright',
  'dom',
];
const tsc = join(root, 'node_modules/typescript/bin/tsc');
execFileSync(
  process.execPath,
  [
    tsc,
    '--ignoreConfig',
    ...typed.map((f) => `src/${f}.ts`),
    '--declaration',
    '--emitDeclarationOnly',
    '--noCheck',
    '--noResolve',
    '--outDir',
    dist,
    '--rootDir',
    'src',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--skipLibCheck',
  ],
  { cwd: pkg, stdio: 'inherit' },
);
for (const f of typed) {
  const text = await readFile(join(dist, `${f}.d.ts`), 'utf8');
  for (const [, spec] of text.matchAll(/from '([^']+)'/g)) {
    if (!spec.startsWith('./') && spec !== 'playwright-core')
      throw new Error(`dist/${f}.d.ts imports ${spec}: public types must not reach into the workspace`);
  }
}
