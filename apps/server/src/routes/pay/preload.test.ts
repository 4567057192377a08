import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { writePayFixture } from '../../testing/pay-dist.js';
import { preloadPage } from './preload.js';

/**
 * `/pay/preload`, the empty page the widget frames on intent so the pay frame's process and assets
 * are warm: it names exactly the built page's scripts and stylesheets, carries nothing else, and
 * any page may frame it.
 */

let s: TestServer;
let dist: string;
beforeAll(async () => {
  dist = writePayFixture();
  s = await startTestServer({ payDir: dist });
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('GET /pay/preload', () => {
  it("200: preloads the built page's module script, and nothing else (its stylesheet is inlined in the page)", async () => {
    const res = await s.http({ method: 'GET', path: '/pay/preload' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Remit</title>' +
        '<link rel="modulepreload" crossorigin href="/pay/assets/index-abc123.js">' +
        '</head><body></body></html>',
    );
    // What it names is served (else the warm-up would warm nothing).
    expect((await s.http({ method: 'GET', path: '/pay/assets/index-abc123.js' })).status).toBe(200);
  });

  it('any page may frame it; no script of its own can run; cached briefly', async () => {
    const res = await s.http({ method: 'GET', path: '/pay/preload' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).not.toMatch(/<script|remit-state/);
  });

  it('503 "run npm run build" when the page is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'remit-no-dist-'));
    const t = await startTestServer({ payDir: empty });
    try {
      const res = await t.http({ method: 'GET', path: '/pay/preload' });
      expect(res.status).toBe(503);
      expect(res.text).toContain('pay page is not built: run npm run build');
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('preloadPage', () => {
  it("reads Vite's tags whatever their attribute order; a stylesheet left as a link is preloaded too", () => {
    const vite = '<script type="module" crossorigin src="/pay/assets/a.js"></script><link rel="stylesheet" crossorigin href="/pay/assets/b.css">';
    expect(preloadPage(vite)).toContain('<link rel="modulepreload" crossorigin href="/pay/assets/a.js"><link rel="stylesheet" crossorigin href="/pay/assets/b.css">');
    expect(preloadPage('<style>body{}</style><script type="module" src="/pay/assets/a.js"></script>')).not.toContain('stylesheet');
  });
});
