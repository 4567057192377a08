import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from '../../plugins/security-headers.js';
import { frameAncestors, payPageCsp, setApiHeaders, setPageHeaders, stripeSources } from './headers.js';

describe('frameAncestors', () => {
  it('any origin in sandbox while the merchant allows none; no one in production', () => {
    expect(frameAncestors({ env: 'sandbox', allowedOrigins: [], embedOrigin: null })).toBe('*');
    expect(frameAncestors({ env: 'sandbox', allowedOrigins: [], embedOrigin: 'https://a.example' })).toBe('*');
    expect(frameAncestors({ env: 'production', allowedOrigins: [], embedOrigin: null })).toBe("'none'");
  });
  it("the merchant's allowed origins, plus the link's own", () => {
    expect(
      frameAncestors({ env: 'production', allowedOrigins: ['https://a.example'], embedOrigin: 'https://b.example' }),
    ).toBe('https://a.example https://b.example');
    expect(
      frameAncestors({ env: 'sandbox', allowedOrigins: ['https://a.example'], embedOrigin: 'https://a.example' }),
    ).toBe('https://a.example');
    expect(frameAncestors({ env: 'production', allowedOrigins: [], embedOrigin: 'https://b.example' })).toBe(
      'https://b.example',
    );
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

describe("with Stripe's fields", () => {
  const framing = {
    env: 'production' as const,
    allowedOrigins: ['https://shop.example.com'],
    embedOrigin: null,
    styleHashes: ['sha256-abc='],
  };
  it("allows exactly Stripe.js's origin for scripts, frames and calls beside the page's own, nothing else", () => {
    expect(payPageCsp({ ...framing, stripeJsUrl: 'http://127.0.0.1:45123/v3/' })).toBe(
      [
        "default-src 'none'",
        "script-src 'self' http://127.0.0.1:45123",
        "style-src 'self' 'sha256-abc='",
        "img-src 'self' data: https:",
        "font-src 'self'",
        "connect-src 'self' http://127.0.0.1:45123",
        "frame-src 'self' http://127.0.0.1:45123",
        "form-action 'self'",
        "base-uri 'none'",
        'frame-ancestors https://shop.example.com',
      ].join('; '),
    );
  });
  it("Stripe's own Stripe.js also reaches its API and shows 3-D Secure from its hooks host (Stripe's CSP guide)", () => {
    const csp = payPageCsp({ ...framing, stripeJsUrl: 'https://js.stripe.com/v3/' });
    expect(csp).toContain("script-src 'self' https://js.stripe.com;");
    expect(csp).toContain("connect-src 'self' https://js.stripe.com https://api.stripe.com;");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com;");
    expect(csp).not.toMatch(/unsafe|\*\.|https: [^;]*script/);
  });
  it("Remit's own fields, or an address that is not a URL: no frames, scripts and calls from itself only", () => {
    for (const stripeJsUrl of [undefined, null, '', 'not a url', 'data:text/javascript,1']) {
      const csp = payPageCsp({ ...framing, stripeJsUrl });
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("connect-src 'self';");
      expect(csp).not.toContain('frame-src');
    }
    expect(stripeSources('javascript:alert(1)')).toEqual({ script: [], frame: [], connect: [] });
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
