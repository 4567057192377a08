import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The pay page build: served by the server under /pay/, assets hashed, one CSS file, no inline
 * script. `vite build --ssr src/ssr.tsx` (the second half of `npm run build`) makes the server's
 * renderer in `dist/ssr/`, self-contained (Preact bundled in), outside the served assets.
 *
 * JSX compiles to Preact's classic `h(type, props, ...children)` rather than the automatic
 * runtime's `jsx(type, {...props, children: [...]})`: shorter calls and no jsx-runtime module,
 * some 200 bytes gzip of the 20 KB budget. (@preact/preset-vite, which the component tests use,
 * only sets the automatic runtime here once devtools and prefresh are off, so it is not used.)
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/pay/',
  oxc: {
    jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
    jsxInject: `import { h, Fragment } from 'preact'`,
  },
  ssr: { noExternal: true },
  // A language's texts are one object (translations/<tag>/pay.json), not a module export per text.
  json: { namedExports: false },
  // Vite ends the CSS file with a `/*$vite$:1*/` marker of its own: bytes of the budget for nothing.
  plugins: [
    // Vite wraps each dynamic import in a helper that first preloads the imported chunk's own
    // imports; the language chunks import nothing the page has not loaded, so the helper's
    // ~500 bytes gzip would buy nothing: it is replaced by a plain call.
    {
      name: 'remit-no-preload-helper',
      enforce: 'pre',
      apply: 'build',
      load: (id) => (id === '\0vite/preload-helper.js' ? 'export const __vitePreload = (load) => load();' : undefined),
    },
    {
      name: 'remit-css-marker',
      enforce: 'post',
      generateBundle(_, bundle) {
        for (const f of Object.values(bundle))
          if (f.type === 'asset' && f.fileName.endsWith('.css'))
            f.source = String(f.source).replace(/\/\*\$vite\$:\d+\*\/\s*$/, '');
      },
    },
  ],
  build: isSsrBuild
    ? // One file: the languages the page loads as chunks are inlined (ssr.tsx loads them all at once).
      {
        outDir: 'dist/ssr',
        emptyOutDir: false,
        target: 'node20',
        minify: false,
        reportCompressedSize: false,
        rollupOptions: { output: { inlineDynamicImports: true } },
      }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        assetsDir: 'assets',
        // Inlined assets would be data: URIs; nothing here is worth it and the CSP stays simple.
        assetsInlineLimit: 0,
        cssCodeSplit: false,
        // The polyfill is an inline-free extra few hundred bytes every supported browser does not need.
        modulePreload: false,
        target: 'es2022',
        reportCompressedSize: false,
        // dist/.vite/manifest.json: the server and the bundle bench find the language chunks by it.
        manifest: true,
        // A language's chunk is named for it (`messages-de-<hash>.js`), not for its file (`pay.json`).
        rollupOptions: {
          output: {
            chunkFileNames: (c: { facadeModuleId?: string | null }) => {
              const l = /translations\/([\w-]+)\/pay\.json$/.exec(c.facadeModuleId ?? '');
              return l ? `assets/messages-${l[1]}-[hash].js` : 'assets/[name]-[hash].js';
            },
          },
        },
      },
}));
