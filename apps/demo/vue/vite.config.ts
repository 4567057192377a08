import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

// The Vue demo, built to apps/demo/dist/vue (served by src/serve.ts on its own origin).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [vue()],
  build: { outDir: fileURLToPath(new URL('../dist/vue', import.meta.url)), emptyOutDir: true },
});
