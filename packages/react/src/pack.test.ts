import { readFileSync } from 'node:fs';
import { packAndInstall, type PackedApp } from '@remit/wrapper-core/pack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * @remit/react as a user gets it: `npm pack`, installed with React alone into a project outside
 * the repository, rendered on the server from a plain ESM script, type-checked from a TSX file with
 * tsc. publint and @arethetypeswrong/cli run on its tarball in packages/wrapper-core/src/tarballs.test.ts.
 */
let p: PackedApp;

// Needs no database: run in the PGlite pass only.
// tsc over the installed package take tens of seconds on a busy machine.
describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')(
  '@remit/react from its packed tarball',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      p = await packAndInstall(['@remit/react'], {
        react: undefined,
        'react-dom': undefined,
        '@types/react': undefined,
      });
    }, 240_000);
    afterAll(() => p?.remove());

    it('holds one ESM file (the loader inside, React outside, "use client" first) and standalone types; ≤ 2 KB gzip', () => {
      const pkg = JSON.parse(readFileSync(p.installed('package.json'), 'utf8'));
      expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
      expect(pkg.sideEffects).toBe(false);
      expect(pkg.peerDependencies).toEqual({ react: expect.any(String) });
      expect(pkg.dependencies).toBeUndefined();
      const { js, imports, gzip } = p.bundle();
      expect(js.startsWith('"use client";')).toBe(true);
      expect(js).toContain('/js/dynamic-launch.js');
      expect(imports).toEqual(['react']);
      expect(gzip).toBeLessThanOrEqual(2048);
      for (const f of ['index.d.ts', 'components.d.ts', 'types.d.ts'])
        expect(readFileSync(p.installed(`dist/${f}`), 'utf8')).not.toMatch(/(from|import\()\s*['"]@remit\//);
      expect(() => readFileSync(p.installed('src/index.ts'))).toThrow();
    });

    it('renders on the server from a plain ESM script: buttons and the table placeholder, nothing loaded', async () => {
      const out = await p.node(
        'ssr.mjs',
        `import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions } from '@remit/react';
console.log(renderToString(h('main', null,
  h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 12.3 }, 'Pay $12.30'),
  h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 5, phone_number: '4155550123' }),
  h(CompletedTransactions, { clientKey: 'pk_test_abc' }))));
`,
      );
      expect(out.trim()).toBe(
        '<main><button type="button">Pay $12.30</button><button type="button">Request payment</button><div data-remit-widget="completed-transactions"></div></main>',
      );
    });

    it('type-checks a TSX user with tsc: typed callbacks; a missing prop or a wrong callback fails', async () => {
      await p.tsc(
        {
          'shop.tsx': `import { GetPaymentPage, RequestPaymentonClick, CompletedTransactions, type PaymentResult, type RemitWidgetError } from '@remit/react';
export function Shop({ onPaid }: { onPaid: (id: string) => void }) {
  return (
    <>
      <GetPaymentPage clientKey="pk_test_abc" amount="12.30" baseUrl="https://remit.example"
        onSuccess={(r: PaymentResult) => { if (r.status === 'succeeded') onPaid(r.transaction_id); }}
        onError={(e: RemitWidgetError) => console.error(e.code, e.message)} onClose={() => {}}>Pay $12.30</GetPaymentPage>
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="4155550123" onSuccess={(r) => console.log(r.phone_last_four)} />
      <CompletedTransactions clientKey="pk_test_abc" />
      {/* @ts-expect-error amount is required */}
      <GetPaymentPage clientKey="pk_test_abc" />
      {/* @ts-expect-error phone_number is required */}
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} />
      {/* @ts-expect-error a request's result has no transaction_id */}
      <RequestPaymentonClick clientKey="pk_test_abc" amount={5} phone_number="1" onSuccess={(r) => r.transaction_id} />
    </>
  );
}
`,
        },
        { jsx: 'react-jsx' },
      );
    });
  },
);
