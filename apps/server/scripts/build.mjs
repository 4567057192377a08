// Builds the production server: apps/server/dist/main.js (the server) and dist/cli.js (`remit`),
// each one ES module with the workspace packages (@remit/core, @remit/contract) compiled in and the
// npm dependencies left as imports, so `node apps/server/dist/main.js` runs without tsx or any
// development tool.
//
// Files the code finds by path at run time (the pay page and portal builds, the embedded database's
// worker and migrations) stay where they are in the repository: each source file's `import.meta.url`
// is rewritten to that file's own address, computed from the bundle's, so those paths resolve as
// they do under tsx. The repository checkout is what is deployed (docs/deployment.md).
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(server, 'dist');
const entries = { main: join(server, 'src/main.ts'), cli: join(server, 'src/cli.ts') };
const entryFiles = new Set(Object.values(entries));

/** npm packages stay imports (resolved from node_modules at run time); our own packages are compiled in. */
const npmExternal = {
  name: 'npm-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@remit/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** `import.meta.url` of a bundled source file: that file's address, relative to the bundle's. */
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url') || entryFiles.has(args.path)) return undefined;
      const rel = relative(dist, args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(rel)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/** The root package.json (version.ts reads its version) compiled in as its version alone, not its scripts and tools. */
const rootPackage = join(server, '../../package.json');
const versionOnly = {
  name: 'version-only',
  setup(b) {
    b.onLoad({ filter: /package\.json$/ }, async (args) => {
      if (args.path !== rootPackage) return undefined;
      const { version } = JSON.parse(await readFile(args.path, 'utf8'));
      return { contents: JSON.stringify({ version }), loader: 'json' };
    });
  },
};

await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: entries,
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  // No code splitting: a rewritten `import.meta.url` is relative to the file it lands in, dist/ itself.
  plugins: [npmExternal, sourceUrls, versionOnly],
  logLevel: 'warning',
});
