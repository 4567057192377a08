import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@remit/server/testing';
import { packAndInstall, type PackedApp } from '@remit/wrapper-core/pack';

/**
 * The SDK as a user gets it: `npm pack` (which builds dist/ through prepack), installed into a
 * project outside the repository, imported from an ESM script against the real server, and
 * type-checked from a TS file with tsc. publint and @arethetypeswrong/cli run on its tarball in
 * packages/wrapper-core/src/tarballs.test.ts.
 */
const exec = promisify(execFile);
let p: PackedApp;
let app: string;
let s: TestServer;

beforeAll(async () => {
  p = await packAndInstall(['@remit/sdk']);
  app = p.app;
  s = await startTestServer();
}, 240_000);

afterAll(async () => {
  await s?.close();
  p?.remove();
});

describe('@remit/sdk from its packed tarball', () => {
  it('holds the build and the bundled contract declarations, and no sources or tests', () => {
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/@remit/sdk/package.json'), 'utf8'));
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/require.d.cts', default: './dist/require.cjs' },
    });
    expect(pkg.sideEffects).toBe(false);
    // Publishable: not private, licensed, with its README and license in the tarball.
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    for (const f of ['README.md', 'LICENSE'])
      expect(readFileSync(join(app, 'node_modules/@remit/sdk', f), 'utf8')).toMatch(/\S/);
    expect(readFileSync(join(app, 'node_modules/@remit/sdk/README.md'), 'utf8')).toContain(
      "import { Remit, RemitApiError } from '@remit/sdk';",
    );
    expect(pkg.dependencies).toEqual({ zod: expect.any(String) });
    const index = readFileSync(join(app, 'node_modules/@remit/sdk/dist/index.js'), 'utf8');
    expect(index).not.toMatch(/@remit\/contract|node:/);
    expect(() => readFileSync(join(app, 'node_modules/@remit/sdk/src/index.ts'))).toThrow();
  });

  it('runs from a plain ESM script against the real server: calls, a GET list with parameters, verifyWebhook', async () => {
    const [clientId, secretKey] = await s.credentials();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = JSON.stringify({
      event_type: 'payment.refund',
      data: { parent_transaction_id: 'txn_1' },
      id: 'evt_1',
      created_at: new Date().toISOString(),
    });
    const at = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', at, body),
    };
    const stdout = await p.node(
      'check.mjs',
      `import { Remit, RemitApiError, verifyWebhook } from '@remit/sdk';
const input = JSON.parse(process.env.CHECK_INPUT);
const remit = new Remit({ baseUrl: input.url, clientId: input.clientId, secretKey: input.secretKey });
const merchants = await remit.merchants.list();
let error;
try { await remit.transactions.list({ merchant_key: 'mk_test_nobody', limit: 5, pageNumber: 0 }); } catch (e) { error = e instanceof RemitApiError ? { status: e.status, code: e.code } : String(e); }
const event = verifyWebhook(input.secret, input.headers, input.body);
console.log(JSON.stringify({ merchants: merchants.data, error, event_type: event.event_type, parent: event.data.parent_transaction_id }));
`,
      { CHECK_INPUT: JSON.stringify({ url: s.url, clientId, secretKey, secret, headers, body }) },
    );
    expect(JSON.parse(stdout)).toEqual({
      merchants: [],
      error: { status: 401, code: 'invalid_merchant_key' },
      event_type: 'payment.refund',
      parent: 'txn_1',
    });
  });

  it('type-checks a TS user of the package with tsc (the event union narrows; wrong uses fail)', async () => {
    await p.tsc({
      'user.ts': `import { Remit, verifyWebhook, type TransactionListItem, type WebhookEvent } from '@remit/sdk';
const remit = new Remit({ baseUrl: 'http://127.0.0.1', clientId: 'c', secretKey: 's' });
export async function lastAmounts(merchant_key: string): Promise<string[]> {
  const page = await remit.transactions.list({ merchant_key, from_date: '2026-01-01', limit: 10 });
  const items: TransactionListItem[] = page.data;
  return items.map((t) => t.amount);
}
export function parent(raw: string, headers: Record<string, string>): string | null {
  const e: WebhookEvent = verifyWebhook('whsec_x', headers, raw);
  if (e.event_type === 'payment.refund') return e.data.parent_transaction_id;
  // @ts-expect-error only payment.refund carries parent_transaction_id
  return e.data.parent_transaction_id;
}
// @ts-expect-error amount is required by POST /pay-link
void remit.payLinks.create({ merchant_key: 'mk' });
`,
    });
  });

  it('require() from CommonJS: works where Node loads ES modules with require, else says how to import it', async () => {
    const works = await p.node(
      'check.cjs',
      "const { Remit, verifyWebhook } = require('@remit/sdk');\nconsole.log(typeof Remit, typeof verifyWebhook);\n",
    );
    expect(works.trim()).toBe('function function');
    // A Node that cannot require ES modules (the flag turns this one's support off).
    const old = await exec(process.execPath, ['--no-experimental-require-module', 'check.cjs'], { cwd: app }).catch(
      (e: { stderr: string }) => e,
    );
    expect((old as { stderr: string }).stderr).toContain(
      "@remit/sdk is an ES module. Use `import { Remit } from '@remit/sdk'`, or from CommonJS `const { Remit } = await import('@remit/sdk')`",
    );
    expect((old as { stderr: string }).stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
