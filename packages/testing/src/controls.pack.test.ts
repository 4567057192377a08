import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAndInstall, type PackedApp } from '@remit/wrapper-core/pack';
import { freePort } from './test-support.js';
import { call } from './http.js';

/**
 * `npx remit-sandbox` from the kit's tarball, in a project of its own, driven over HTTP only as a
 * pytest or Go suite would: each /testing control, the pinned webhook receiver, and a clean stop
 * (SIGTERM to npx, npx killed outright, the Cypress helper). One pass: no database of ours.
 */
const root = join(import.meta.dirname, '../../..');

interface Printed {
  url: string;
  credentials: { clientId: string; secretKey: string };
  merchant: { merchantKey: string; merchantId: string; publicKey: string };
  webhooksUrl: string;
}

/** `npx remit-sandbox …` in the project: the process and the JSON line it printed. */
function npxSandbox(app: string, args: string[]): Promise<{ npx: ChildProcess; printed: Printed }> {
  const npx = spawn('npx', ['remit-sandbox', ...args], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  npx.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    npx.once('exit', (code) => reject(new Error(`npx remit-sandbox exited (${code}) before it was ready: ${stderr}`)));
    createInterface({ input: npx.stdout! }).once('line', (line) => resolve({ npx, printed: JSON.parse(line) }));
  });
}

/** Every process under `pid`, from /proc. */
function descendants(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(path)) return [];
  const kids = readFileSync(path, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return kids.flatMap((k) => [k, ...descendants(k)]);
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

/** Waits until nothing answers at `url` (connection refused) and none of `pids` runs; throws after `ms`. */
async function gone(urls: string[], pids: number[], ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const answering = await Promise.all(
      urls.map((u) =>
        fetch(u, { signal: AbortSignal.timeout(1000) }).then(
          () => true,
          () => false,
        ),
      ),
    );
    const running = pids.filter(alive);
    if (!answering.includes(true) && running.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`still there after ${ms} ms: ${urls.filter((_, i) => answering[i]).join(', ')} pids ${running}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('npx remit-sandbox from the tarball, over HTTP', () => {
  let p: PackedApp;
  beforeAll(async () => {
    p = await packAndInstall(['@remit/testing'], {}, { dev: true });
  }, 300_000);
  afterAll(() => p?.remove());

  it('--port and --webhooks-port; every /testing control; SIGTERM to npx stops the sandbox', async () => {
    const [port, webhooksPort] = [await freePort(), await freePort()];
    const { npx, printed } = await npxSandbox(p.app, ['--port', String(port), '--webhooks-port', String(webhooksPort)]);
    const exited = new Promise<string>((r) => npx.once('exit', (code, signal) => r(signal ?? `exit ${code}`)));
    const tree = descendants(npx.pid!);
    try {
      expect(printed.url).toBe(`http://127.0.0.1:${port}`);
      expect(printed.webhooksUrl).toBe(`http://127.0.0.1:${webhooksPort}/webhooks`);
      const auth: [string, string] = [printed.credentials.clientId, printed.credentials.secretKey];
      const t = (method: string, path: string, json?: unknown) =>
        call(`${printed.url}/testing${path}`, method, { auth, json });
      const api = (path: string, body: object) =>
        call(`${printed.url}/api/v1${path}`, 'POST', {
          auth,
          json: { merchant_key: printed.merchant.merchantKey, ...body },
        });

      // Without credentials: 401, and nothing is queued.
      const anonymous = await call(`${printed.url}/testing/fail`, 'POST', { json: { outcome: 'decline' } });
      expect([anonymous.status, anonymous.body.code]).toEqual([401, 'unauthorized']);

      // A forced insufficient_funds: the charge declines, and payment.failed comes through the long-poll.
      expect((await t('POST', '/fail', { outcome: 'insufficient_funds' })).body.data.queued).toEqual([
        'insufficient_funds',
      ]);
      const customer = await api('/customers/add', {
        first_name: 'Ada',
        card: {
          number: '4242424242424242',
          exp_month: 12,
          exp_year: new Date().getFullYear() + 2,
          cvc: '123',
          zip: '94105',
        },
      });
      const charged = await api(`/customers/charge/${customer.body.data.customer_id}`, {
        amount: 42,
        order_id: 'py-1',
        preAuth: false,
      });
      expect([charged.status, charged.body.code]).toEqual([402, 'insufficient_funds']);
      const failed = await t('GET', '/webhooks/next?type=payment.failed&timeout_ms=15000');
      expect(failed.status).toBe(200);
      expect(failed.body.data.data).toEqual({
        transaction_id: charged.body.transaction_id,
        merchant_id: printed.merchant.merchantId,
        order_id: 'py-1',
        amount: 42,
        code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        method: 'card',
      });

      // The SMS of a payment request.
      const request = await api('/requests', { amount: '40.00', order_id: 'py-2', phone_number: '(415) 555-0123' });
      const sms = await t('GET', '/messages/next?to=%2B14155550123&timeout_ms=15000');
      expect(sms.status).toBe(200);
      expect(sms.body.data.links[0]).toBe(request.body.data.pay_link);

      // A triggered ach.update, signed and delivered like any other.
      const sent = await t('POST', '/trigger', {
        event_type: 'ach.update',
        merchant_key: printed.merchant.merchantKey,
      });
      expect(sent.status).toBe(200);
      const ach = await t('GET', '/webhooks/next?type=ach.update&timeout_ms=15000');
      expect(ach.body.data).toMatchObject({ id: sent.body.data.event_id, event_type: 'ach.update' });
      expect(ach.body.data.data).toMatchObject({ merchant_id: printed.merchant.merchantId, status: 'Approved' });

      // The clock, and a wait that ends in 408.
      expect((await t('POST', '/clock/advance', { by: '3d' })).body.data.advanced_ms).toBe(3 * 86_400_000);
      expect((await t('GET', '/webhooks/next?type=preauth&timeout_ms=100')).status).toBe(408);

      // The pinned receiver lists what it got.
      const listed = await call(printed.webhooksUrl, 'GET');
      expect(listed.body.received.map((e: { id: string }) => e.id)).toContain(sent.body.data.event_id);

      // Reset: the sandbox is empty, the same credentials work.
      expect((await t('POST', '/reset')).status).toBe(200);
      const merchants = await call(`${printed.url}/api/v1/merchant`, 'GET', { auth });
      expect([merchants.status, merchants.body.data]).toEqual([200, []]);

      // npm exec dies of the signal without passing it on; the sandbox sees its parent go, and stops.
      npx.kill('SIGTERM');
      expect(['SIGTERM', 'exit 0']).toContain(await exited);
      await gone([`${printed.url}/healthz`, printed.webhooksUrl], tree);
    } finally {
      for (const pid of [npx.pid!, ...tree]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 240_000);

  it("docs/testing.md's curl block, run as written against npx remit-sandbox", async () => {
    const doc = readFileSync(join(root, 'docs/testing.md'), 'utf8');
    const block = /^```sh\n(# remit-sandbox's url[\s\S]*?)^```$/m.exec(doc)![1]!;
    const { npx, printed } = await npxSandbox(p.app, []);
    const tree = descendants(npx.pid!);
    try {
      const { stdout } = await p.run('bash', ['-eo', 'pipefail', '-c', block], {
        REMIT: printed.url,
        CLIENT_ID: printed.credentials.clientId,
        SECRET_KEY: printed.credentials.secretKey,
        MERCHANT_KEY: printed.merchant.merchantKey,
      });
      expect(stdout).toContain('"queued":["insufficient_funds"]');
      expect(stdout).toContain('"code":"insufficient_funds"');
      expect(stdout).toMatch(/"event_type":"payment.failed","data":\{[^}]*"method":"card"[^}]*"transaction_id":"txn_/);
      expect(stdout).toContain('"channel":"sms","to":"+14155550123"');
      expect(stdout).toContain('"advanced_ms":90000000');
      expect(stdout).toMatch(/"event_type":"ach.update","data":\{[^}]*"status":"Approved"/);
      expect(stdout).toContain(`"client_id":"${printed.credentials.clientId}"`);
      expect(stdout).toMatch(/"merchant_key":"mk_test_/);
    } finally {
      npx.kill('SIGTERM');
      await gone([`${printed.url}/healthz`], tree);
    }
  }, 240_000);

  it("the docs' pytest example (docs/examples/testing/pytest) passes against npx remit-sandbox", async () => {
    for (const f of ['conftest.py', 'test_checkout.py'])
      cpSync(join(root, 'docs/examples/testing/pytest', f), join(p.app, f));
    const { stdout } = await p.run('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_checkout.py'], {
      REMIT_WEBHOOKS_PORT: String(await freePort()),
    });
    expect(stdout).toMatch(/3 passed/);
  }, 240_000);

  it('npx killed outright (SIGKILL, no signal passed on): the sandbox under it exits by itself', async () => {
    const { npx, printed } = await npxSandbox(p.app, []);
    const tree = descendants(npx.pid!);
    try {
      expect(tree.length).toBeGreaterThan(0);
      npx.kill('SIGKILL');
      await gone([`${printed.url}/healthz`, printed.webhooksUrl], tree);
    } finally {
      for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 240_000);

  it("the docs' Cypress helper started with npx: stop() ends the whole tree", async () => {
    cpSync(join(root, 'docs/examples/testing/cypress/remit-sandbox.mjs'), join(p.app, 'remit-sandbox.mjs'));
    const { startRemitSandbox } = await import(join(p.app, 'remit-sandbox.mjs'));
    const cwd = process.cwd();
    process.chdir(p.app);
    let started: Printed & { stop(): Promise<unknown> };
    try {
      started = await startRemitSandbox({ command: 'npx', args: ['remit-sandbox'] });
    } finally {
      process.chdir(cwd);
    }
    expect((await call(`${started.url}/healthz`, 'GET')).status).toBe(200);
    await started.stop();
    await gone([`${started.url}/healthz`, started.webhooksUrl], [], 1000);
  }, 240_000);
});
