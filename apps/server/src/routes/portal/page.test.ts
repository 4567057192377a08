import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { PORTAL_CSP } from './headers.js';

/** The portal page: served with its CSP in sandbox; production answers a 404 page for all of /portal. */
let s: TestServer;
let prod: TestServer;
const dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Portal</title></head><body><div id="app"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  [s, prod] = await Promise.all([
    startTestServer({ portalDir: dist }),
    startTestServer({ env: 'production', portalDir: dist }),
  ]);
});
afterAll(async () => {
  await Promise.all([s?.close(), prod?.close()]);
  rmSync(dist, { recursive: true, force: true });
});

describe('the portal page in sandbox', () => {
  it('/portal and each view answer the page with a strict CSP that no one may frame', async () => {
    for (const path of [
      '/portal',
      '/portal/merchants',
      '/portal/webhooks',
      '/portal/inbox',
      '/portal/transactions',
      '/portal/snippets',
      '/portal/onboarding',
    ]) {
      const res = await s.http({ method: 'GET', path, headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('<div id="app">');
      expect(res.headers['content-security-policy'], path).toBe(PORTAL_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(PORTAL_CSP).toContain("script-src 'self'");
    expect(PORTAL_CSP).toContain("frame-ancestors 'none'");
    expect(PORTAL_CSP).not.toContain('unsafe-inline');
  });

  it('/portal/ (a trailing slash) goes to the portal, its query kept', async () => {
    for (const [path, to] of [
      ['/portal/', '/portal'],
      ['/portal/?from=docs', '/portal?from=docs'],
    ]) {
      const res = await s.http({ method: 'GET', path: path!, headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(308);
      expect(res.headers.location, path).toBe(to);
    }
  });

  it('an unknown view is a 404 page', async () => {
    const res = await s.http({ method: 'GET', path: '/portal/nope', headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(res.text).toContain('No such portal page');
  });

  it('serves built assets for a year, and nothing outside the build', async () => {
    const ok = await s.http({ method: 'GET', path: '/portal/assets/index-abc.js' });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of [
      '/portal/assets/..%2f..%2fpackage.json',
      '/portal/assets/../index.html',
      '/portal/assets/nope.js',
    ]) {
      const res = await s.http({ method: 'GET', path });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('production', () => {
  it('answers a 404 page for /portal, its views and its API', async () => {
    for (const path of ['/portal', '/portal/merchants', '/portal/api/session', '/portal/api/merchants']) {
      const res = await prod.http({ method: 'GET', path, headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.text).toContain('There is no portal here');
    }
  });

  it('refuses a portal sign-in (no such route) and keeps credentials at 403 sandbox_only', async () => {
    const signIn = await prod.http({
      method: 'POST',
      path: '/portal/api/session',
      json: { client_id: 'cl_x', secret_key: 'sk_live_x' },
    });
    expect(signIn.status).toBe(404);
    const cred = await prod.http({ method: 'POST', path: '/portal/api/credentials' });
    expect(cred.status).toBe(403);
    expect(cred.body.code).toBe('sandbox_only');
  });
});
