import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './http.js';
import { startSandbox, type Sandbox } from './index.js';

/**
 * A sandbox on a network address is reached by other machines: like `npm start` with HOST=0.0.0.0,
 * the kit (startSandbox() and the remit-sandbox command) then refuses webhook targets on loopback and
 * private networks, which would relay a stranger's deliveries into this machine and show the answers.
 */

type Auth = [string, string];

/** What a client on another machine would register: this machine's loopback (another Remit there too) and private networks. */
const privateTargets = (port: string) => [
  `http://127.0.0.1:${port}/api/v1/merchant`,
  `http://localhost:${port}/`,
  `http://[::1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  'http://10.1.2.3/hook',
  'http://192.168.0.10/hook',
  'http://172.16.5.4/hook',
  'http://169.254.169.254/latest/meta-data',
];

const register = (url: string, auth: Auth, target: string) =>
  call(`${url}/api/v1/client/update-webhooks-url`, 'POST', { auth, json: { webhook_url: target } });

/** A GET with the `Host` header given (fetch would not send it). */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = request(`${url}/healthz`, { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    r.on('error', reject);
    r.end();
  });
}

async function expectRefused(url: string, auth: Auth) {
  for (const target of privateTargets(new URL(url).port)) {
    const r = await register(url, auth, target);
    expect([r.status, r.body.status], target).toEqual([400, false]);
    expect(r.body.message, target).toMatch(/^webhook_url must point at a public host: this sandbox is reachable/);
  }
}

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('startSandbox() on a network address', () => {
  let network: Sandbox;
  let loopback: Sandbox;
  beforeAll(async () => {
    [network, loopback] = await Promise.all([startSandbox({ host: '0.0.0.0' }), startSandbox()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([network?.stop(), loopback?.stop()]);
  });
  const auth = (s: Sandbox): Auth => [s.credentials.clientId, s.credentials.secretKey];

  it('on 0.0.0.0 refuses loopback and private webhook targets; its own receiver still gets every event', async () => {
    await expectRefused(network.url, auth(network));
    // The refusals changed nothing: the kit's receiver is still the registered one.
    const m = await network.createMerchant({ business_name: 'Network Sandbox LLC' });
    const approval = await network.webhooks.next('merchant.approval', {
      where: { merchant_id: m.merchantId },
      timeoutMs: 15_000,
    });
    expect(approval.data.business_name).toBe('Network Sandbox LLC');
    expect(network.webhooks.rejected()).toEqual([]);
  });

  it('on 127.0.0.1 still allows them', async () => {
    for (const target of privateTargets(new URL(loopback.url).port)) {
      const r = await register(loopback.url, auth(loopback), target);
      expect([r.status, r.body.status], target).toEqual([200, true]);
    }
  });

  it("checks Host as the server does: on loopback only its own names; on a network address the names it's reached by", async () => {
    expect(await statusWithHost(loopback.url, new URL(loopback.url).host)).toBe(200);
    expect(await statusWithHost(loopback.url, 'rebound.example')).toBe(421);
    expect(await statusWithHost(network.url, `${hostname()}:${new URL(network.url).port}`)).toBe(200);
  });
});

/** The command as a test in another language starts it, from the sources (pack.test.ts runs the packed one). */
async function startCommand(args: string[]) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./bin.ts', import.meta.url).pathname, '--port', '0', ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`remit-sandbox exited ${code} before its JSON line`)));
  });
  const started = JSON.parse(line) as { url: string; credentials: { clientId: string; secretKey: string } };
  return {
    url: started.url,
    auth: [started.credentials.clientId, started.credentials.secretKey] as Auth,
    stop: () =>
      new Promise<number | null>((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('remit-sandbox on a network address', () => {
  it('--host 0.0.0.0 refuses loopback and private webhook targets; its receiver still gets the merchant’s approval', async () => {
    const s = await startCommand(['--host', '0.0.0.0']);
    try {
      await expectRefused(s.url, s.auth);
      // The merchant the command made at start: its approval reached the kit's receiver.
      let delivery: { status: string; url: string } | undefined;
      for (let i = 0; i < 150 && delivery?.status !== 'delivered'; i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        const log = await call(`${s.url}/api/v1/client/webhook-deliveries?event_type=merchant.approval`, 'GET', {
          auth: s.auth,
        });
        delivery = log.body.data.deliveries[0];
      }
      expect(delivery).toMatchObject({
        status: 'delivered',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      });
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 120_000);

  it('on 127.0.0.1 (the default) allows them', async () => {
    const s = await startCommand(['--no-merchant']);
    try {
      for (const target of privateTargets(new URL(s.url).port)) {
        expect((await register(s.url, s.auth, target)).status, target).toBe(200);
      }
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 120_000);
});
