import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoVersion, run } from './pack.js';

/**
 * Every package a merchant installs, as the packages' READMEs say to install it: `npm pack` of the
 * four from the repository, the tarballs installed together into an empty project with public
 * packages only (react, vue and zod from the registry), then imported from Node (ESM, and CommonJS
 * where the package offers it), type-checked from strict TypeScript with the repository's tsc, and
 * linted. Needs no database: it runs in the PGlite pass only.
 */
const root = join(import.meta.dirname, '../../..');
const PACKAGES = ['@remit/loader', '@remit/react', '@remit/vue', '@remit/sdk'];
const bin = (name: string) => join(root, 'node_modules/.bin', name);
let tmp: string;
let app: string;
let tarballs: string[];

/** The first ```lang block of a package's README. */
const readmeBlock = (pkg: string, lang: string) =>
  new RegExp(`\n\`\`\`${lang}\n([\\s\\S]*?)\n\`\`\`\n`).exec(
    readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8'),
  )![1]!;

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')(
  'the published packages, from their tarballs in a new project',
  () => {
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'remit-tarballs-'));
      const packs = join(tmp, 'packs');
      mkdirSync(packs);
      // The README's command, at the repository's root.
      await run('npm', ['pack', ...PACKAGES.flatMap((p) => ['-w', p]), '--pack-destination', packs], { cwd: root });
      tarballs = readdirSync(packs).map((f) => join(packs, f));
      app = join(tmp, 'app');
      mkdirSync(app);
      const dependencies: Record<string, string> = Object.fromEntries(
        tarballs.map((t) => [`@remit/${t.match(/remit-(\w+)-[\d.]+\.tgz$/)![1]}`, `file:${t}`]),
      );
      for (const dep of ['react', 'react-dom', '@types/react', 'vue']) dependencies[dep] = repoVersion(dep);
      writeFileSync(
        join(app, 'package.json'),
        JSON.stringify({ name: 'remit-merchant-shop', private: true, type: 'module', dependencies }),
      );
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], { cwd: app });
    }, 180_000);
    afterAll(() => {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('each is public, MIT, with a README and a LICENSE, its types exported, no sources or tests, no other Remit package needed', () => {
      expect(tarballs.map((t) => t.split('/').pop()).sort()).toEqual([
        'remit-loader-0.1.0.tgz',
        'remit-react-0.1.0.tgz',
        'remit-sdk-0.1.0.tgz',
        'remit-vue-0.1.0.tgz',
      ]);
      // Only the four were installed from the repository: nothing pulled in @remit/contract or another workspace package.
      expect(readdirSync(join(app, 'node_modules/@remit')).sort()).toEqual(['loader', 'react', 'sdk', 'vue']);
      for (const name of PACKAGES) {
        const dir = join(app, 'node_modules', name);
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        expect([name, pkg.private, pkg.license]).toEqual([name, undefined, 'MIT']);
        expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toContain('MIT License');
        expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(
          `npm install /tmp/remit-packages/${name.slice(1).replace('/', '-')}-0.1.0.tgz`,
        );
        expect(JSON.stringify(pkg.exports['.'])).toMatch(/"types":"\.\/dist\/index\.d\.ts"/);
        const needs = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
        expect(needs.filter((d) => d.startsWith('@remit/'))).toEqual([]);
      }
    });

    it('shipped files are the build alone: no src/, no tests, no raw .ts', async () => {
      for (const name of PACKAGES) {
        const { stdout } = await run('find', ['.', '-type', 'f', '-not', '-path', './node_modules/*'], {
          cwd: join(app, 'node_modules', name),
        });
        const files = stdout.trim().split('\n');
        expect(
          files.filter((f) => /^\.\/src\/|\.test\.|(?<!\.d)\.ts$/.test(f)),
          name,
        ).toEqual([]);
        expect(files, name).toContain('./dist/index.js');
      }
    });

    it('import in Node as ES modules, and require() the SDK, which offers CommonJS', async () => {
      writeFileSync(
        join(app, 'esm.mjs'),
        `import { loadRemit, onRemit, scriptUrl } from '@remit/loader';
import * as react from '@remit/react';
import * as vue from '@remit/vue';
import { Remit, verifyWebhook } from '@remit/sdk';
console.log(JSON.stringify({
  loader: [typeof loadRemit, typeof onRemit, scriptUrl({ publicKey: 'pk_test_a', baseUrl: 'https://remit.example' }, 'https://shop.example')],
  server: await loadRemit({ publicKey: 'pk_test_a' }),
  react: Object.keys(react).sort(),
  vue: Object.keys(vue).sort(),
  sdk: [typeof Remit, typeof verifyWebhook],
}));
`,
      );
      expect(JSON.parse((await run(process.execPath, ['esm.mjs'], { cwd: app })).stdout)).toEqual({
        loader: [
          'function',
          'function',
          'https://remit.example/js/dynamic-launch.js?remit_merchant_public_key=pk_test_a',
        ],
        server: null,
        react: ['CompletedTransactions', 'GetPaymentPage', 'RequestPaymentonClick'],
        vue: ['CompletedTransactions', 'GetPaymentPage', 'RequestPaymentonClick'],
        sdk: ['function', 'function'],
      });
      writeFileSync(
        join(app, 'cjs.cjs'),
        "const { Remit } = require('@remit/sdk');\nconsole.log(typeof new Remit({ baseUrl: 'http://x', clientId: 'c', secretKey: 's' }).payLinks.create);\n",
      );
      expect((await run(process.execPath, ['cjs.cjs'], { cwd: app })).stdout.trim()).toBe('function');
    });

    it('type-check under strict TypeScript, each in use: right uses pass, wrong ones fail', async () => {
      writeFileSync(
        join(app, 'shop.tsx'),
        `import { loadRemit, onRemit, type PaymentResult } from '@remit/loader';
import { GetPaymentPage } from '@remit/react';
import { GetPaymentPage as VuePay } from '@remit/vue';
import { h } from 'vue';
import { Remit, verifyWebhook } from '@remit/sdk';

export async function pay(): Promise<string | null> {
  const remit = await loadRemit({ publicKey: 'pk_test_a', baseUrl: 'https://remit.example', onError: (e) => console.error(e.code) });
  const stop = onRemit('payment-success', ({ transaction_id }) => console.log(transaction_id));
  const r: PaymentResult | undefined = await remit?.getPaymentPage('12.50');
  stop();
  // @ts-expect-error publicKey is required
  void loadRemit({ baseUrl: 'https://remit.example' });
  return r?.transaction_id ?? null;
}
export const ReactPay = () => <GetPaymentPage clientKey="pk_test_a" amount="12.50" onSuccess={(r) => console.log(r.transaction_id)}>Pay</GetPaymentPage>;
// @ts-expect-error amount is required
export const ReactBroken = () => <GetPaymentPage clientKey="pk_test_a" />;
export const vuePay = () => h(VuePay, { clientKey: 'pk_test_a', amount: '12.50' });
export async function links(raw: string, headers: Record<string, string>) {
  const remit = new Remit({ baseUrl: 'https://remit.example', clientId: 'cl_a', secretKey: 's' });
  const link = await remit.payLinks.create({ merchant_key: 'mk_test_a', amount: '10.00' });
  const event = verifyWebhook('whsec_a', headers, raw);
  // @ts-expect-error amount is required
  void remit.payLinks.create({ merchant_key: 'mk_test_a' });
  return [link.data.payment_link, event.event_type];
}
`,
      );
      // The READMEs' own examples, as shown.
      writeFileSync(join(app, 'react-readme.tsx'), readmeBlock('react', 'tsx'));
      writeFileSync(join(app, 'loader-readme.ts'), readmeBlock('loader', 'ts'));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            lib: ['ES2022', 'DOM'],
            jsx: 'react-jsx',
            types: [],
          },
          files: ['shop.tsx', 'react-readme.tsx', 'loader-readme.ts'],
        }),
      );
      await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app });
    }, 120_000);

    it('are clean under publint (strict) and @arethetypeswrong/cli (ESM-only profile)', async () => {
      await Promise.all(
        tarballs.map(async (tarball) => {
          const publint = await run(bin('publint'), ['run', tarball, '--strict']);
          expect(publint.stdout, tarball).toContain('All good!');
          await run(bin('attw'), [tarball, '--profile', 'esm-only', '--no-color']);
        }),
      );
    }, 120_000);
  },
);
