import { readFileSync } from 'node:fs';
import { packAndInstall, type PackedApp } from '@remit/wrapper-core/pack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * @remit/vue as a user gets it: `npm pack`, installed with Vue alone into a project outside the
 * repository, rendered on the server with createSSRApp from a plain ESM script, type-checked from
 * a TSX file with tsc (Vue's JSX types check props and emits). publint and @arethetypeswrong/cli
 * run on its tarball in packages/wrapper-core/src/tarballs.test.ts.
 */
let p: PackedApp;

// Needs no database: run in the PGlite pass only.
// tsc over the installed package take tens of seconds on a busy machine.
describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')(
  '@remit/vue from its packed tarball',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      p = await packAndInstall(['@remit/vue'], { vue: undefined });
    }, 240_000);
    afterAll(() => p?.remove());

    it('holds one ESM file (the loader inside, Vue outside) and standalone types; ≤ 2 KB gzip', () => {
      const pkg = JSON.parse(readFileSync(p.installed('package.json'), 'utf8'));
      expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
      expect(pkg.sideEffects).toBe(false);
      expect(pkg.peerDependencies).toEqual({ vue: expect.any(String) });
      expect(pkg.dependencies).toBeUndefined();
      const { js, imports, gzip } = p.bundle();
      expect(js).toContain('/js/dynamic-launch.js');
      expect(imports).toEqual(['vue']);
      expect(gzip).toBeLessThanOrEqual(2048);
      for (const f of ['index.d.ts', 'components.d.ts', 'types.d.ts'])
        expect(readFileSync(p.installed(`dist/${f}`), 'utf8')).not.toMatch(/(from|import\()\s*['"]@remit\//);
      expect(() => readFileSync(p.installed('src/index.ts'))).toThrow();
    });

    it('renders on the server with createSSRApp from a plain ESM script: buttons and the table placeholder', async () => {
      const out = await p.node(
        'ssr.mjs',
        `import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions } from '@remit/vue';
const app = createSSRApp({ render: () => h('main', [
  h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 12.3 }, () => 'Pay $12.30'),
  h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 5, phone_number: '4155550123' }),
  h(CompletedTransactions, { clientKey: 'pk_test_abc' })]) });
console.log(await renderToString(app));
`,
      );
      expect(out.trim()).toBe(
        '<main><button type="button">Pay $12.30</button><button type="button">Request payment</button><div data-remit-widget="completed-transactions"></div></main>',
      );
    });

    it('type-checks a TSX user with tsc: typed emits; a missing prop or a wrong handler fails', async () => {
      await p.tsc(
        {
          'shop.tsx': `import { defineComponent } from 'vue';
import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions, type PaymentResult, type RemitWidgetError } from '@remit/vue';
export default defineComponent({
  emits: { paid: (_id: string) => true },
  setup(_, { emit }) {
    return () => (
      <main>
        <GetPaymentPage clientKey="pk_test_abc" amount="12.30" baseUrl="https://remit.example"
          onSuccess={(r: PaymentResult) => { if (r.status === 'succeeded') emit('paid', r.transaction_id); }}
          onError={(e: RemitWidgetError) => console.error(e.code, e.message)} onClose={() => {}}>Pay $12.30</GetPaymentPage>
        <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="4155550123" onSuccess={(r) => console.log(r.phone_last_four)} />
        <CompletedTransactions clientKey="pk_test_abc" />
        {/* @ts-expect-error amount is required */}
        <GetPaymentPage clientKey="pk_test_abc" />
        {/* @ts-expect-error phone_number is required */}
        <RequestPaymentonClick clientKey="pk_test_abc" amount={5} />
        {/* @ts-expect-error a request's result has no transaction_id */}
        <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="1" onSuccess={(r) => r.transaction_id} />
      </main>
    );
  },
});
`,
        },
        { jsx: 'preserve', jsxImportSource: 'vue' },
      );
    });
  },
);
