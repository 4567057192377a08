import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

/**
 * The pay page build: served by the server under /pay/, assets hashed, one CSS file, no inline
 * script. `vite build --ssr src/ssr.tsx` (the second half of `npm run build`) makes the server's
 * renderer in `dist/ssr/`, self-contained (Preact bundled in), outside the served assets.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/pay/',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  ssr: { noExternal: true },
  build: isSsrBuild
    ? { outDir: 'dist/ssr', emptyOutDir: false, target: 'node20', minify: false, reportCompressedSize: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        assetsDir: 'assets',
        // Inlined assets would be data: URIs; nothing here is worth it and the CSP stays simple.
        assetsInlineLimit: 0,
        cssCodeSplit: false,
        // The polyfill is an inline-free extra few hundred bytes every supported browser does not need.
        modulePreload: { polyfill: false },
        target: 'es2022',
        reportCompressedSize: false,
      },
}));
