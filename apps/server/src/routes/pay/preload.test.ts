import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { writePayFixture } from '../../testing/pay-dist.js';
import { preloadPage } from './preload.js';

/**
 * `/pay/preload`, the shell of the pay page the widget frames on intent (warm.ts), which renders a
 * link only when its parent posts one it may frame: the built page with no state and nothing
 * rendered, and any page may frame it.
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
  it('200: the built page (its script, its stylesheet inlined) with no state and nothing rendered, #app marked as the shell', async () => {
    const res = await s.http({ method: 'GET', path: '/pay/preload' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<script type="module" src="/pay/assets/index-abc123.js"></script>');
    expect(res.text).toContain('<div id="app" data-shell></div>');
    expect(res.text).toMatch(/<style>[^<]+<\/style>/);
    expect(res.text).not.toMatch(/remit-state|remit-app|rendered/);
    // What it names is served.
    expect((await s.http({ method: 'GET', path: '/pay/assets/index-abc123.js' })).status).toBe(200);
  });

  it("any page may frame it; the pay page's policy otherwise (own scripts, calls to itself, its stylesheet by hash); cached briefly", async () => {
    const res = await s.http({ method: 'GET', path: '/pay/preload' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
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
  it('drops the state and markup markers and marks #app, whatever else the template holds', () => {
    const built =
      '<head><!--remit-state--><script type="module" crossorigin src="/pay/assets/a.js"></script></head><body><div id="app"><!--remit-app--></div></body>';
    expect(preloadPage(built)).toBe(
      '<head><script type="module" crossorigin src="/pay/assets/a.js"></script></head><body><div id="app" data-shell></div></body>',
    );
  });
});
