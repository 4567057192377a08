import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBlock, packAndInstall, run, type PackedApp } from './pack.js';

/**
 * Every package a merchant installs, as the packages' READMEs say to install it: `npm pack` of the
 * four from the repository, the tarballs installed together into an empty project with public
 * packages only (react, vue and zod from the registry), then imported from Node (ESM, and CommonJS
 * where the package offers it), type-checked from strict TypeScript with the repository's tsc, and
 * linted (the one publint and attw run of each: the packages' own pack tests do not repeat it).
 * Needs no database: it runs in the PGlite pass only.
 */
const root = join(import.meta.dirname, '../../..');
const PACKAGES = ['@remit/loader', '@remit/react', '@remit/vue', '@remit/sdk'];
let p: PackedApp;

/** The first ```lang block of a package's README. */
const readmeBlock = (pkg: string, lang: string) =>
  new RegExp(`\n\`\`\`${lang}\n([\\s\\S]*?)\n\`\`\`\n`).exec(
    readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8'),
  )![1]!;

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')(
  'the published packages, from their tarballs in a new project',
  () => {
    beforeAll(async () => {
      p = await packAndInstall(PACKAGES, {
        react: undefined,
        'react-dom': undefined,
        '@types/react': undefined,
        vue: undefined,
      });
    }, 180_000);
    afterAll(() => p?.remove());

    it('each is public, MIT, with a README and a LICENSE, its types exported, no sources or tests, no other Remit package needed', () => {
      expect(
        Object.values(p.tarballs)
          .map((t) => t.split('/').pop())
          .sort(),
      ).toEqual(['remit-loader-0.1.0.tgz', 'remit-react-0.1.0.tgz', 'remit-sdk-0.1.0.tgz', 'remit-vue-0.1.0.tgz']);
      // Only the four were installed from the repository: nothing pulled in @remit/contract or another workspace package.
      expect(readdirSync(join(p.app, 'node_modules/@remit')).sort()).toEqual(['loader', 'react', 'sdk', 'vue']);
      for (const name of PACKAGES) {
        const dir = join(p.app, 'node_modules', name);
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

    it("docs/embedding.md's install block packs these four and the test kit, and installs a tarball packed here; each README's its own", () => {
      const names = Object.values(p.tarballs).map((t) => t.split('/').pop()!);
      const embedding = installBlock(readFileSync(join(root, 'docs/embedding.md'), 'utf8'));
      expect(embedding.packs.sort()).toEqual([...PACKAGES, '@remit/testing'].sort());
      expect(embedding.installs.length).toBeGreaterThan(0);
      for (const t of embedding.installs) expect(names).toContain(t);
      for (const name of PACKAGES) {
        const readme = installBlock(readFileSync(join(root, 'packages', name.split('/')[1]!, 'README.md'), 'utf8'));
        expect(readme, name).toEqual({ packs: [name], installs: [p.tarballs[name]!.split('/').pop()] });
      }
    });

    it('shipped files are the build alone: no src/, no tests, no raw .ts', async () => {
      for (const name of PACKAGES) {
        const { stdout } = await run('find', ['.', '-type', 'f', '-not', '-path', './node_modules/*'], {
          cwd: p.installed('.', name),
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
      const esm = await p.node(
        'esm.mjs',
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
      expect(JSON.parse(esm)).toEqual({
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
      const cjs = await p.node(
        'cjs.cjs',
        "const { Remit } = require('@remit/sdk');\nconsole.log(typeof new Remit({ baseUrl: 'http://x', clientId: 'c', secretKey: 's' }).payLinks.create);\n",
      );
      expect(cjs.trim()).toBe('function');
    });

    it('type-check under strict TypeScript, each in use: right uses pass, wrong ones fail', async () => {
      await p.tsc(
        {
          'shop.tsx': `import { loadRemit, onRemit, type PaymentResult } from '@remit/loader';
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
          // The READMEs' own examples, as shown.
          'react-readme.tsx': readmeBlock('react', 'tsx'),
          'loader-readme.ts': readmeBlock('loader', 'ts'),
        },
        { jsx: 'react-jsx' },
      );
    }, 120_000);

    it('are clean under publint (strict) and @arethetypeswrong/cli (ESM-only profile)', async () => {
      await Promise.all(PACKAGES.map((name) => p.lint(name)));
    }, 120_000);
  },
);
