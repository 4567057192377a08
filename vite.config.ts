import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The test projects (`npm test` runs them all; `npx vitest run --project e2e` one of them). The pay
 * page's and the portal's build configs are `apps/pay/vite.config.ts` and `apps/portal/vite.config.ts`;
 * `npm test` builds both first (`pretest`).
 */
/** The docs' test-kit examples: the kit runs on its own in-memory database, so they run in the PGlite pass only. */
const kitExamples = (dir: string) =>
  process.env.REMIT_TEST_DB === 'postgres' ? [] : [`docs/examples/testing/${dir}/*.test.ts`];

/**
 * The happy-dom projects render components against no database, and the browser tests (e2e) drive pages
 * whose server the unit project already runs on both databases: the Postgres pass (CI's second run)
 * leaves them out, as they would run the same code twice.
 */
const databaseFree = new Set(['pay', 'form-kit', 'widgets', 'react', 'vue', 'portal', 'e2e']);
const forThisDatabase = (projects: TestProjectInlineConfiguration[]) =>
  process.env.REMIT_TEST_DB === 'postgres'
    ? projects.filter((p) => !databaseFree.has(String(p.test?.name ?? '')))
    : projects;

/**
 * What a test file must mention to depend on the database: a test server, a core, a database of its
 * own, or a server process. The Postgres pass (CI's second run) runs only these; the others (the
 * contract, the SDK's types, the docs, the packs) would run the same code twice.
 */
const DATABASE_MARKERS =
  /startTestServer|openTestCore|createTestDatabase|connectDatabase|openCore\(|restartableServer|startProcess\(|startPgCluster|stripeCliEnv|testDbKind|REMIT_TEST_DB/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name === 'dist'
      ? []
      : e.isDirectory()
        ? testFiles(join(dir, e.name))
        : /\.test\.tsx?$/.test(e.name)
          ? [join(dir, e.name)]
          : [],
  );
}

/** On the Postgres pass: the unit project's files that never touch a database, left out. */
const databaseFreeFiles = () =>
  process.env.REMIT_TEST_DB === 'postgres'
    ? ['apps', 'packages', 'bench'].flatMap(testFiles).filter((f) => !DATABASE_MARKERS.test(readFileSync(f, 'utf8')))
    : [];

export default defineConfig({
  // The SDK's and the loader's packages export their builds (dist/); inside the repository they are used from source.
  // So is the test kit, which the docs' examples (docs/examples/testing) import by its package name.
  resolve: {
    alias: [
      { find: /^@remit\/sdk$/, replacement: fileURLToPath(new URL('./packages/sdk/src/index.ts', import.meta.url)) },
      {
        find: /^@remit\/loader$/,
        replacement: fileURLToPath(new URL('./packages/loader/src/pure.ts', import.meta.url)),
      },
      {
        find: /^@remit\/loader\/ui$/,
        replacement: fileURLToPath(new URL('./packages/loader/src/ui.ts', import.meta.url)),
      },
      {
        find: /^@remit\/testing\/playwright$/,
        replacement: fileURLToPath(new URL('./packages/testing/src/playwright.ts', import.meta.url)),
      },
      {
        find: /^@remit\/testing\/dom$/,
        replacement: fileURLToPath(new URL('./packages/testing/src/dom.ts', import.meta.url)),
      },
      {
        find: /^@remit\/testing$/,
        replacement: fileURLToPath(new URL('./packages/testing/src/index.ts', import.meta.url)),
      },
    ],
  },
  test: {
    // Three workers on two cores: much of a server test is waiting (processes starting, timers, sockets).
    maxWorkers: 3,
    projects: forThisDatabase([
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'bench/**/*.test.ts',
            ...kitExamples('vitest'),
          ],
          // Component tests of the framework wrappers (*.dom.test.ts) and of the widgets run in their own projects (happy-dom) below.
          exclude: [
            'apps/pay/**',
            'apps/portal/**',
            'packages/form-kit/**',
            'packages/loader/**',
            'packages/widgets/**',
            '**/node_modules/**',
            '**/*.dom.test.ts',
            ...databaseFreeFiles(),
          ],
          // Three workers share two cores: a test that opens several embedded databases (a CLI run, a
          // restart) can take three times as long as alone. A hung test still fails.
          testTimeout: 90_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Files share their worker's modules (the server is imported once per worker, not per file):
          // half the unit pass's time was importing. No test may leave module state behind (docs/architecture.md).
          isolate: false,
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
        // The form kit the pay page and the portal share: each component with its tests and axe beside it.
        extends: true,
        plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
        test: {
          name: 'form-kit',
          include: ['packages/form-kit/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        // The embeddable widgets: the loader (dynamic-launch.js) and the widget chunk, in happy-dom.
        extends: true,
        plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
        define: {
          __REMIT_CHUNK__: JSON.stringify('widgets.test000000.js'),
          __REMIT_CHUNK_SRI__: JSON.stringify('sha384-test'),
        },
        test: {
          name: 'widgets',
          include: ['packages/loader/src/**/*.test.{ts,tsx}', 'packages/widgets/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'react',
          include: [
            'packages/react/src/**/*.dom.test.ts',
            'packages/testing/src/**/*.dom.test.ts',
            'docs/examples/testing/react/*.dom.test.ts',
          ],
          // The docs' React example imports Testing Library as a shop would; it is installed under packages/react.
          alias: {
            '@testing-library/react': fileURLToPath(
              new URL('./packages/react/node_modules/@testing-library/react', import.meta.url),
            ),
          },
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'vue',
          include: ['packages/vue/src/**/*.dom.test.ts'],
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
        test: {
          name: 'portal',
          include: ['apps/portal/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          testTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts', ...kitExamples('playwright')],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // One browser at a time: the machine is small and every file starts its own server.
          fileParallelism: false,
        },
      },
    ]),
  },
});
