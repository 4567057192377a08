import { connect } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '@remit/core';
import { registerErrorHandling } from '../plugins/errors.js';
import { hostNameOf, registerHostGuard } from '../plugins/host-guard.js';
import { send } from '../testing/http.js';
import { portalSignIn } from '../testing/portal.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';

/**
 * DNS rebinding: a page on an attacker's name that resolves to 127.0.0.1 sends this server
 * requests with its own name in `Host` and `Origin`. A server listening only on loopback answers
 * only to its own names, and every change under /portal must come from its own origin.
 */

let s: TestServer;
let port: string;
beforeAll(async () => {
  s = await startTestServer();
  port = new URL(s.url).port;
});
afterAll(() => s?.close());

const MISDIRECTED = {
  result: false,
  code: 'misdirected_request',
  message:
    'This server answers only to its own names (the host of PUBLIC_URL, localhost, 127.0.0.1 and [::1]); this request named another in its Host header.',
  request_id: expect.any(String),
};

describe('a server listening on loopback answers only to its own names', () => {
  it('credentials and an API call under a foreign Host and Origin: 421 in the envelope, nothing made', async () => {
    const auth = await s.credentials();
    const before = await tableCounts(s.core);
    const forged = { host: `rebound.example:${port}`, origin: `http://rebound.example:${port}` };
    const minted = await s.http({ method: 'POST', path: '/portal/api/credentials', headers: forged });
    expect(minted.status).toBe(421);
    expect(minted.body).toEqual(MISDIRECTED);
    expect(minted.text).not.toContain('sk_test_');
    const api = await s.http({ method: 'GET', path: '/api/v1/merchant', auth, headers: forged });
    expect(api.status).toBe(421);
    expect(api.body).toEqual(MISDIRECTED);
    const hook = await s.http({
      method: 'PUT',
      path: '/api/v1/client/webhook',
      auth,
      json: { webhook_url: 'http://127.0.0.1:6379/' },
      headers: forged,
    });
    expect(hook.status).toBe(421);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('every route, and every name that is not its own: 421', async () => {
    const routes = [
      '/healthz',
      '/portal',
      '/portal/api/session',
      '/pay/ord_x',
      '/widget/v1/config',
      '/docs',
      '/api/v1/openapi.json',
      '/no-such-route',
    ];
    for (const path of routes) {
      const res = await s.http({ method: 'GET', path, headers: { host: `rebound.example:${port}` } });
      expect(res.status, path).toBe(421);
      expect(res.body, path).toEqual(MISDIRECTED);
    }
    const hosts = [
      'rebound.example',
      `127.0.0.1.nip.io:${port}`,
      `localhost.rebound.example:${port}`,
      `rebound.example@127.0.0.1:${port}`,
      `127.0.0.1:${port}/x`,
      `localhost.:${port}`,
      `127.0.0.2:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `0.0.0.0:${port}`,
    ];
    for (const host of hosts) {
      const res = await s.http({ method: 'GET', path: '/healthz', headers: { host } });
      expect(res.status, host).toBe(421);
    }
    // No Host at all (HTTP/1.0 allows it): no name, so none of its own.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET /healthz HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.[01] 421 /);
  });

  it('localhost, 127.0.0.1 and [::1] (any port, any case) and the host of PUBLIC_URL are answered', async () => {
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'localhost',
      'LOCALHOST:1234',
      '127.0.0.1',
    ]) {
      expect((await s.http({ method: 'GET', path: '/healthz', headers: { host } })).status, host).toBe(200);
      const minted = await s.http({ method: 'POST', path: '/portal/api/credentials', headers: { host } });
      expect(minted.status, host).toBe(201);
      const auth: [string, string] = [minted.body.client_id, minted.body.secret_key];
      expect((await s.http({ method: 'GET', path: '/api/v1/merchant', auth, headers: { host } })).status, host).toBe(
        200,
      );
    }
    const published = s.core.ctx.publicUrl;
    s.core.ctx.publicUrl = 'https://pay.example.com';
    try {
      expect((await s.http({ method: 'GET', path: '/healthz', headers: { host: 'pay.example.com' } })).status).toBe(
        200,
      );
      expect((await s.http({ method: 'GET', path: '/healthz', headers: { host: 'pay.example.com:443' } })).status).toBe(
        200,
      );
      expect(
        (await s.http({ method: 'GET', path: '/healthz', headers: { host: 'evil.pay.example.com' } })).status,
      ).toBe(421);
    } finally {
      s.core.ctx.publicUrl = published;
    }
  });

  it('a server listening on every address is reached under names it cannot know: not checked', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    registerHostGuard(app, { publicUrl: 'http://127.0.0.1' } as Ctx);
    app.get('/', async () => ({ ok: true }));
    const address = await app.listen({ host: '0.0.0.0', port: 0 });
    try {
      const res = await send({
        method: 'GET',
        url: address.replace('0.0.0.0', '127.0.0.1'),
        headers: { host: 'shop.lan:8080' },
      });
      expect(res.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('reads the name of a Host header, and no name out of what is not one', () => {
    expect(hostNameOf('LocalHost:8080')).toBe('localhost');
    expect(hostNameOf('[::1]:8080')).toBe('[::1]');
    expect(hostNameOf('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of [undefined, '', 'a@127.0.0.1', '127.0.0.1/x', '127.0.0.1?x', 'localhost:99999', '[::1'])
      expect(hostNameOf(bad), String(bad)).toBeNull();
  });
});

describe('every change under /portal comes from the server’s own origin', () => {
  const create = (headers: Record<string, string>) =>
    s.http({ method: 'POST', path: '/portal/api/credentials', headers });

  it('17 other origins, null included, are refused on POST /portal/api/credentials with 403 and no client is made', async () => {
    const p = Number(port);
    const origins = [
      'null',
      'https://evil.example',
      `http://rebound.example:${p}`,
      `http://127.0.0.1.nip.io:${p}`,
      `http://localhost:${p + 1}`,
      `https://127.0.0.1:${p}`,
      `https://localhost:${p}`,
      `http://127.0.0.2:${p}`,
      `http://0.0.0.0:${p}`,
      `http://[::ffff:127.0.0.1]:${p}`,
      `http://localhost.:${p}`,
      'http://127.0.0.1',
      `http://127.0.0.1:${p}/`,
      `http://user@127.0.0.1:${p}`,
      'file://',
      'chrome-extension://abcdefghijklmnop',
      `http://127.0.0.1:${p}.evil.example`,
    ];
    expect(new Set(origins).size).toBe(17);
    const before = await tableCounts(s.core);
    for (const origin of origins) {
      const res = await create({ origin });
      expect(res.status, origin).toBe(403);
      expect(res.body, origin).toMatchObject({ result: false, code: 'csrf_rejected' });
      expect(res.text, origin).not.toContain('sk_test_');
    }
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('a browser page of another site without Origin (Sec-Fetch-Site other than same-origin) is refused', async () => {
    for (const site of ['cross-site', 'same-site', 'none'])
      expect((await create({ 'sec-fetch-site': site })).status, site).toBe(403);
  });

  it('the server’s own origins, and a client that is no browser (curl: no Origin, no Sec-Fetch-Site), get credentials', async () => {
    for (const origin of [s.url, `http://localhost:${port}`, `http://[::1]:${port}`])
      expect((await create({ origin })).status, origin).toBe(201);
    expect((await create({ 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    const curl = await create({});
    expect(curl.status).toBe(201);
    expect(curl.body.client_id).toMatch(/^cl_/);
  });

  it('every other change under /portal is checked the same way, before the session is looked at', async () => {
    const p = await portalSignIn(s);
    const foreign = { origin: 'https://evil.example' };
    for (const [method, path] of [
      ['DELETE', '/session'],
      ['POST', '/merchants'],
      ['PUT', '/webhook'],
      ['POST', '/test-event'],
    ] as const) {
      const res = await p.call(method, path, method === 'DELETE' ? undefined : {}, foreign);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code, `${method} ${path}`).toBe('csrf_rejected');
    }
    // Without a session too: the origin is refused first.
    expect((await s.http({ method: 'DELETE', path: '/portal/api/session', headers: foreign })).body.code).toBe(
      'csrf_rejected',
    );
    // The session still works from the page's own origin.
    expect((await p.call('GET', '/session')).status).toBe(200);
  });
});
