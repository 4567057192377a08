import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

/**
 * The test projects (`npm test` runs them all; `npx vitest run --project e2e` one of them). The pay
 * page's build config is `apps/pay/vite.config.ts`; `npm test` builds it first (`pretest`).
 */
export default defineConfig({
  // The SDK's package exports its build (dist/); inside the repository it is used from source.
  resolve: { alias: { '@remit/sdk': fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
          exclude: ['apps/pay/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
        test: {
          name: 'pay',
          include: ['apps/pay/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One browser at a time: the machine is small and every file starts its own server.
          fileParallelism: false,
        },
      },
    ],
  },
});
