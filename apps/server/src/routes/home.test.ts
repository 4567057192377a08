import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

/** What a newcomer's browser finds at the server's root, and its request for a favicon. */
let s: TestServer;
let prod: TestServer;
beforeAll(async () => {
  [s, prod] = await Promise.all([startTestServer(), startTestServer({ env: 'production' })]);
});
afterAll(async () => {
  await Promise.all([s?.close(), prod?.close()]);
});

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('GET /', () => {
  it('sandbox: a browser is sent to the portal', async () => {
    const res = await s.http({ method: 'GET', path: '/', headers: browser });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/portal');
  });

  it('production: a browser gets a short page saying where the API and its reference are', async () => {
    const res = await prod.http({ method: 'GET', path: '/', headers: browser });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('This is a Remit payments server.');
    expect(res.text).toContain('<a href="/docs">/docs</a>');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('any other client (curl) gets where to go as JSON; the portal only in sandbox', async () => {
    const res = await s.http({ method: 'GET', path: '/' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'Remit',
      env: 'sandbox',
      api: '/api/v1',
      docs: '/docs',
      health: '/healthz',
      portal: '/portal',
    });
    const p = await prod.http({ method: 'GET', path: '/', headers: { accept: 'application/json' } });
    expect(p.body).toEqual({ name: 'Remit', env: 'production', api: '/api/v1', docs: '/docs', health: '/healthz' });
  });
});

describe('/favicon.ico', () => {
  it('answers 204 with nothing (no 404 in the console of every page), cached for a day', async () => {
    for (const server of [s, prod]) {
      const res = await server.http({ method: 'GET', path: '/favicon.ico' });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
    }
  });
});
