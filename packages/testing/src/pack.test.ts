import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBlock, packAndInstall, type PackedApp } from '@remit/wrapper-core/pack';
import { call } from './http.js';

/**
 * @remit/testing as a merchant gets it: `npm pack` (prepack builds dist/), the tarball installed
 * alone into an empty project outside the repository, and there the docs' Vitest example run
 * (a payment and its webhook, an SMS request, settlement by the clock, refunds) and the
 * remit-sandbox command started the way Cypress's config starts it. One pass only: no database of ours.
 */
const root = join(import.meta.dirname, '../../..');

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('the packed @remit/testing in an empty project', () => {
  let p: PackedApp;
  let app: string;
  beforeAll(async () => {
    p = await packAndInstall(['@remit/testing'], {}, { dev: true });
    app = p.app;
  }, 300_000);
  afterAll(() => p?.remove());

  it('docs/testing.md and the README install it as this test does: npm pack -w @remit/testing, then that tarball', () => {
    for (const doc of ['docs/testing.md', 'packages/testing/README.md'])
      expect(installBlock(readFileSync(join(root, doc), 'utf8')), doc).toEqual({
        packs: ['@remit/testing'],
        installs: [p.tarball.split('/').pop()],
      });
  });

  it('depends on public npm packages only, its types name nothing of the workspace, and publint finds nothing', async () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@remit/testing/package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(Object.keys(manifest.dependencies).filter((d) => d.startsWith('@remit/'))).toEqual([]);
    const types = readFileSync(join(app, 'node_modules/@remit/testing/dist/index.d.ts'), 'utf8');
    expect(types).toContain('startSandbox');
    const publint = await p.run(join(root, 'node_modules/.bin/publint'), ['run', p.tarball, '--strict']);
    expect(publint.stdout).toContain('All good!');
  });

  it("runs the docs' Vitest example: payment, webhook, SMS request, settlement by the clock, refund", async () => {
    // The project's own test runner: the repository's vitest stands in for the one it would install.
    symlinkSync(join(root, 'node_modules/vitest'), join(app, 'node_modules/vitest'), 'dir');
    mkdirSync(join(app, 'test'));
    cpSync(join(root, 'docs/examples/testing/vitest/payments.test.ts'), join(app, 'test/payments.test.ts'));
    writeFileSync(
      join(app, 'vitest.config.mjs'),
      'export default { test: { testTimeout: 60000, hookTimeout: 180000 } };\n',
    );
    // A temporary folder of its own: the sandboxes started from the image the package carries, so
    // none had to make one there (database-image.ts).
    const temp = join(app, '..', 'temp');
    mkdirSync(temp);
    const { stdout } = await p.run(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', app],
      {
        REMIT_TEST_DB: '',
        TMPDIR: temp,
      },
    );
    expect(stdout).toMatch(/Tests\s+.*5 passed/);
    expect(readdirSync(temp).filter((f) => f.endsWith('.tar'))).toEqual([]);
  }, 600_000);

  it("remit-sandbox, started the way the docs' Cypress config starts it: a JSON line, a working server, SIGTERM exits 0", async () => {
    cpSync(join(root, 'docs/examples/testing/cypress/remit-sandbox.mjs'), join(app, 'remit-sandbox.mjs'));
    const { startRemitSandbox } = await import(join(app, 'remit-sandbox.mjs'));
    const started = await startRemitSandbox({ command: join(app, 'node_modules/.bin/remit-sandbox') });
    try {
      expect(Object.keys(started)).toEqual(['url', 'credentials', 'merchant', 'webhooksUrl', 'stop']);
      const list = await call(`${started.url}/api/v1/merchant`, 'GET', {
        auth: [started.credentials.clientId, started.credentials.secretKey],
      });
      expect(list.status).toBe(200);
      expect(list.body.data.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([started.merchant.merchantId]);
      const page = await call(
        `${started.url}/js/dynamic-launch.js?remit_merchant_public_key=${started.merchant.publicKey}`,
        'GET',
      );
      expect(page.status).toBe(200);
      // The Cypress spec's own request (e2e/checkout.cy.js, cy.request), then the page it visits;
      // its clicks need Cypress's browser, which CI cannot download (docs/testing.md says so).
      const link = await call(`${started.url}/api/v1/pay-link`, 'POST', {
        auth: [started.credentials.clientId, started.credentials.secretKey],
        json: { merchant_key: started.merchant.merchantKey, amount: '19.99', order_id: 'cy-1' },
      });
      expect(link.status).toBe(200);
      const payPage = await call(link.body.data.payment_link, 'GET');
      expect(payPage.status).toBe(200);
      expect(payPage.text).toContain('<html');
    } finally {
      expect(await started.stop()).toBe(0);
    }
  }, 240_000);
});
