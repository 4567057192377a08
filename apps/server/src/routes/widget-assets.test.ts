import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import type { Ctx } from '@remit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from './types.js';
import { CHUNK_CACHE, LOADER_CACHE, widgetAssetRoutes } from './widget-assets.js';

/** `/js/dynamic-launch.js` and `/js/widgets.<hash>.js`: caching, revalidation, gzip, what is served at all. */

const loaderDir = mkdtempSync(join(tmpdir(), 'remit-loader-'));
const widgetsDir = mkdtempSync(join(tmpdir(), 'remit-widgets-'));
const LOADER = '(()=>{window.loaderRan=1})();'.repeat(40);
const CHUNK = 'widgets.Ab12Cd34Ef.js';
writeFileSync(join(loaderDir, 'dynamic-launch.js'), LOADER);
writeFileSync(join(widgetsDir, CHUNK), 'window.__remitUI&&0;'.repeat(50));
writeFileSync(join(widgetsDir, 'manifest.json'), '{}');

const app = Fastify();
beforeAll(async () => {
  widgetAssetRoutes({ loaderDir, widgetsDir })(app as unknown as App, {} as Ctx);
  await app.ready();
});
afterAll(() => app.close());

describe('widget scripts', () => {
  it('the loader (a stable address): cached 5 minutes, then revalidated by ETag (304)', async () => {
    const res = await app.inject({ url: '/js/dynamic-launch.js?remit_merchant_public_key=pk_test_x' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(LOADER_CACHE);
    expect(LOADER_CACHE).toBe('public, max-age=300, stale-while-revalidate=60');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(LOADER);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]{16}"$/);
    const again = await app.inject({ url: '/js/dynamic-launch.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A new build is a new ETag: the old one no longer matches.
    writeFileSync(join(loaderDir, 'dynamic-launch.js'), LOADER + '//2');
    const rebuilt = await app.inject({ url: '/js/dynamic-launch.js', headers: { 'if-none-match': etag } });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.body).toBe(LOADER + '//2');
    writeFileSync(join(loaderDir, 'dynamic-launch.js'), LOADER);
  });

  it('a versioned chunk (named by its content): cached a year, immutable', async () => {
    const res = await app.inject({ url: `/js/${CHUNK}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(CHUNK_CACHE);
    expect(CHUNK_CACHE).toBe('public, max-age=31536000, immutable');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('gzip to a browser that accepts it (the budgets are gzip sizes), plain otherwise', async () => {
    const gz = await app.inject({ url: '/js/dynamic-launch.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(gz.rawPayload.length).toBeLessThan(LOADER.length / 4);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(LOADER);
    const plain = await app.inject({ url: '/js/dynamic-launch.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LOADER);
  });

  it('nothing but chunk names: other files of the directory, traversal and unknown chunks are 404', async () => {
    for (const url of [
      '/js/manifest.json',
      '/js/widgets.nope0000.js',
      '/js/..%2Fpackage.json',
      '/js/widgets.Ab12Cd34Ef.js.map',
      '/js/%2e%2e%2fdynamic-launch.js',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ result: false, code: 'asset_not_found' });
    }
  });

  it('not built: the loader is 503 with what to do', async () => {
    const empty = Fastify();
    widgetAssetRoutes({ loaderDir: mkdtempSync(join(tmpdir(), 'remit-none-')), widgetsDir })(
      empty as unknown as App,
      {} as Ctx,
    );
    const res = await empty.inject({ url: '/js/dynamic-launch.js' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'unavailable',
      message: 'The widget loader is not built: run npm run build.',
    });
    await empty.close();
  });
});

describe('widget messages', () => {
  it('the language a tag asks for, its Intl tag and direction, cacheable and readable from any origin', async () => {
    const res = await app.inject({ url: '/js/widget-messages/fr-CA' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      locale: 'fr',
      intl: 'fr-FR',
      dir: 'ltr',
      messages: { pay: 'Payer {amount}', close: 'Fermer le paiement' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe(LOADER_CACHE);
    expect(res.headers.vary).toContain('accept-language');
    const ar = (await app.inject({ url: '/js/widget-messages/ar' })).json();
    expect(ar).toMatchObject({ locale: 'ar', dir: 'rtl', messages: { sent: 'أُرسل طلب الدفع' } });
  });
  it('an unknown or malformed tag: the Accept-Language, else English', async () => {
    const byHeader = await app.inject({
      url: '/js/widget-messages/ko',
      headers: { 'accept-language': 'ko-KR, zh-CN;q=0.8' },
    });
    expect(byHeader.json()).toMatchObject({ locale: 'zh-Hans', messages: { done: '完成' } });
    const junk = await app.inject({ url: `/js/widget-messages/${encodeURIComponent('<x>')}` });
    expect(junk.statusCode).toBe(200);
    expect(junk.json()).toMatchObject({ locale: 'en', intl: 'en-US', messages: { pay: 'Pay {amount}' } });
  });
});
