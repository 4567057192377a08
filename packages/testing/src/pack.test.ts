import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './http.js';

/**
 * @remit/testing as a merchant gets it: `npm pack` (prepack builds dist/), the tarball installed
 * alone into an empty project outside the repository, and there the docs' Vitest example run
 * (a payment and its webhook, an SMS request, settlement by the clock, refunds) and the
 * remit-sandbox command started the way Cypress's config starts it. One pass only: no database of ours.
 */
const exec = promisify(execFile);
const pkg = join(import.meta.dirname, '..');
const root = join(pkg, '../..');

async function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  try {
    return await exec(file, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, REMIT_TEST_DB: '', ...env },
    });
  } catch (e) {
    const { stdout = '', stderr = '' } = e as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('the packed @remit/testing in an empty project', () => {
  let tmp: string;
  let app: string;
  let tarball: string;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'remit-testing-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], pkg);
    tarball = join(tmp, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
    app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'merchant-ci',
        private: true,
        type: 'module',
        devDependencies: { '@remit/testing': `file:${tarball}` },
      }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], app);
  }, 300_000);
  afterAll(() => tmp && rmSync(tmp, { recursive: true, force: true }));

  it('depends on public npm packages only, its types name nothing of the workspace, and publint finds nothing', async () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@remit/testing/package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.license).toBe('MIT');
    expect(Object.keys(manifest.dependencies).filter((d) => d.startsWith('@remit/'))).toEqual([]);
    const types = readFileSync(join(app, 'node_modules/@remit/testing/dist/index.d.ts'), 'utf8');
    expect(types).toContain('startSandbox');
    const publint = await run(join(root, 'node_modules/.bin/publint'), ['run', tarball, '--strict'], tmp);
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
    const temp = join(tmp, 'temp');
    mkdirSync(temp);
    const { stdout } = await run(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', app],
      app,
      { TMPDIR: temp },
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
