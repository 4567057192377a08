import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The SDK's package exports its build (dist/); inside the repository it is used from source.
  resolve: { alias: { '@remit/sdk': fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url)) } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
