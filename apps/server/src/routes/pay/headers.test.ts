import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../../plugins/security-headers.js';
import { frameAncestors, payPageCsp, setApiHeaders, setPageHeaders } from './headers.js';

describe('frameAncestors', () => {
  it('any origin in sandbox while the merchant allows none; no one in production', () => {
    expect(frameAncestors({ env: 'sandbox', allowedOrigins: [], embedOrigin: null })).toBe('*');
    expect(frameAncestors({ env: 'sandbox', allowedOrigins: [], embedOrigin: 'https://a.example' })).toBe('*');
    expect(frameAncestors({ env: 'production', allowedOrigins: [], embedOrigin: null })).toBe("'none'");
  });
  it("the merchant's allowed origins, plus the link's own", () => {
    expect(frameAncestors({ env: 'production', allowedOrigins: ['https://a.example'], embedOrigin: 'https://b.example' })).toBe('https://a.example https://b.example');
    expect(frameAncestors({ env: 'sandbox', allowedOrigins: ['https://a.example'], embedOrigin: 'https://a.example' })).toBe('https://a.example');
    expect(frameAncestors({ env: 'production', allowedOrigins: [], embedOrigin: 'https://b.example' })).toBe('https://b.example');
  });
});

describe('payPageCsp', () => {
  it("styles from itself and the page's own <style> by hash: never 'unsafe-inline' or 'unsafe-hashes' (style attributes)", () => {
    const framing = { env: 'production' as const, allowedOrigins: [], embedOrigin: null };
    expect(payPageCsp(framing)).toContain("style-src 'self';");
    const csp = payPageCsp({ ...framing, styleHashes: ['sha256-abc='] });
    expect(csp).toContain("style-src 'self' 'sha256-abc=';");
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe/);
  });
});

describe('on top of app-wide helmet defaults', () => {
  it("the pay page's own headers win over helmet's, whatever helmet set first", async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    const framing = { env: 'production' as const, allowedOrigins: ['https://shop.example.com'], embedOrigin: null };
    app.get('/page', (_req, reply) => setPageHeaders(reply, framing).send('<!doctype html>'));
    app.get('/api', (_req, reply) => setApiHeaders(reply).send({ ok: true }));
    const page = await app.inject('/page');
    expect(page.headers['content-security-policy']).toBe(payPageCsp(framing));
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const api = await app.inject('/api');
    expect(api.headers['cache-control']).toBe('no-store');
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    await app.close();
  });
});
