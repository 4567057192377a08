import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payPageStateSchema } from '@remit/contract';
import { createCredentials, openCore } from '@remit/core';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { send } from '../testing/http.js';
import { buildApp, REDACT } from '../app.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { FIXTURE_HTML, stateOf, writePayFixture } from '../testing/pay-dist.js';
import { DEFAULT_PAY_DIST, fillPage } from './pay/index.js';
import { inlineStylesheets } from './pay/page.js';

/**
 * Serving the built pay page: `/pay/{link_id}` and `/pay/card/{token}` answer index.html with the
 * status of what it shows and its state injected, under the pay page's security headers; the
 * hashed assets are cached for a year; a missing build is a clear 503.
 */

let s: TestServer;
let m: TestMerchant;
let dist: string;
beforeAll(async () => {
  dist = writePayFixture();
  s = await startTestServer({ payDir: dist });
  m = await newMerchant(s);
});
afterAll(async () => {
  await s.close();
  rmSync(dist, { recursive: true, force: true });
});

async function payLink(body: Record<string, unknown> = {}, who: TestMerchant = m) {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, amount: '10.00', ...body },
  });
  return String(res.body.data.payment_link).split('/').pop()!;
}
const page = (path: string) => s.http({ method: 'GET', path });
const cspOf = (res: { headers: Record<string, unknown> }) =>
  Object.fromEntries(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([k, ...v]) => [k, v.join(' ')]),
  );

describe('GET /pay/{link_id}', () => {
  it('200: the built index.html with the link view injected at the marker, as inert JSON', async () => {
    const id = await payLink({ order_id: 'HTML-1' });
    const res = await page(`/pay/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).not.toContain('<!--remit-state-->');
    const state = stateOf(res.text);
    expect(payPageStateSchema.parse(state)).toEqual(state);
    expect(state.page).toBe('link');
    const api = await s.http({ method: 'GET', path: `/pay/api/links/${id}` });
    expect(state.view).toEqual(api.body);
    // The markup rendered for that state fills #app, with its locale; the title names the merchant;
    // the rest of the page is the build's, byte for byte.
    expect(res.text).toContain('<div id="app" data-locale="en"><p class="rendered">link</p></div>');
    expect(res.text).toContain(`<title>Pay · ${state.view.merchant.name}</title>`);
    // (the stylesheet written in, so the first paint waits for no second request)
    const [head, tail] = FIXTURE_HTML.split('<!--remit-state-->');
    expect(
      res.text.startsWith(
        head!
          .replace('<html lang="en">', '<html lang="en" dir="ltr">')
          .replace('<title>Pay</title>', `<title>Pay · ${state.view.merchant.name}</title>`),
      ),
    ).toBe(true);
    const inlined = tail!.replace(
      '<link rel="stylesheet" href="/pay/assets/index-abc123.css">',
      '<style>body{margin:0}\n</style>',
    );
    expect(inlined).not.toBe(tail);
    expect(
      res.text.endsWith(
        inlined.replace(
          '<div id="app"><!--remit-app-->',
          '<div id="app" data-locale="en"><p class="rendered">link</p>',
        ),
      ),
    ).toBe(true);
  });

  it('renders in the locale ?locale= asks for, on <html lang> and #app', async () => {
    const res = await page(`/pay/${await payLink()}?locale=es`);
    expect(res.text).toContain('<html lang="es" dir="ltr">');
    expect(res.text).toContain('<div id="app" data-locale="es">');
  });

  it("preloads the Spanish chunk (named by the build's manifest) for a Spanish page only: English costs nothing more", async () => {
    const preload = '<link rel="modulepreload" href="/pay/assets/messages-es-def456.js">';
    const id = await payLink();
    const es = await page(`/pay/${id}?locale=es`);
    expect(es.status).toBe(200);
    expect(es.text.split('</head>')[0]).toContain(preload);
    const en = await page(`/pay/${id}`);
    expect(en.status).toBe(200);
    expect(en.text).not.toContain('modulepreload');
  });

  it('404 for an unknown link and 410 for a deleted one, with the error state', async () => {
    const unknown = await page('/pay/ord_doesnotexist000000');
    expect(unknown.status).toBe(404);
    expect(stateOf(unknown.text)).toEqual({
      page: 'error',
      status: 404,
      code: 'link_not_found',
      message: 'This payment link does not exist. Check the address you were sent.',
    });
    const id = await payLink();
    await s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    const gone = await page(`/pay/${id}`);
    expect(gone.status).toBe(410);
    expect(stateOf(gone.text)).toEqual({
      page: 'error',
      status: 410,
      code: 'link_cancelled',
      message: 'The merchant cancelled this payment link; it can no longer be paid.',
    });
  });

  it('a paid link answers 200 with its receipt', async () => {
    const id = await payLink({ amount: '3.00' });
    const card = {
      number: '4242424242424242',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 1,
      cvc: '123',
      name: 'A',
      zip: '94105',
    };
    await s.http({
      method: 'POST',
      path: `/pay/api/links/${id}/pay`,
      json: { method: 'card', card },
      headers: { 'idempotency-key': randomUUID() },
    });
    const res = await page(`/pay/${id}`);
    expect(res.status).toBe(200);
    expect(stateOf(res.text).view).toMatchObject({ status: 'paid', receipt: { status: 'succeeded', amount: 300 } });
  });

  it('escapes < in the state so no value breaks out of the script element', async () => {
    const evil = '</script><script>alert(1)</script><!--';
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '1.00', order_id: evil, description: `${evil} \u2028 $& $1` },
    });
    const html = (await page(`/pay/${res.body.data.link_id}`)).text;
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).not.toContain('<!--"');
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const json = /<script id="remit-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(json).not.toContain('<');
    expect(json).toContain('\\u003c/script>');
    expect(json).not.toContain('\u2028');
    const state = JSON.parse(json);
    expect(state.view.order_id).toBe(evil);
    expect(state.view.description).toBe(`${evil} \u2028 $& $1`);
  });
});

describe('GET /pay/card/{token}', () => {
  it('200 with the add-card state; 404 for an unknown token or a pay link id', async () => {
    const add = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Rita', email: 'r@example.com' },
    });
    const customerId = add.body.data.customer_id;
    await s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${customerId}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    const r = (await s.core.ctx.db.execute(
      `select id from pay_links where customer_id = ${Number(customerId)} and kind = 'card_request'` as never,
    )) as unknown as { rows: Array<{ id: string }> };
    const token = r.rows[0]!.id;
    const res = await page(`/pay/card/${token}`);
    expect(res.status).toBe(200);
    expect(stateOf(res.text)).toMatchObject({
      page: 'card',
      view: { token, customer_first_name: 'Rita', status: 'open' },
    });
    const unknown = await page('/pay/card/ord_doesnotexist000000');
    expect(unknown.status).toBe(404);
    expect(stateOf(unknown.text)).toMatchObject({ page: 'error', status: 404, code: 'card_link_not_found' });
    expect((await page(`/pay/card/${await payLink()}`)).status).toBe(404);
    expect((await page(`/pay/${token}`)).status).toBe(404);
  });
});

describe('security headers', () => {
  it('the page: strict CSP, no-store, nosniff, no referrer; frame-ancestors * in sandbox with no allowed origins', async () => {
    const res = await page(`/pay/${await payLink()}`);
    expect(cspOf(res)).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      // the built stylesheet, inlined, by the hash of its exact text; no 'unsafe-inline', no style attributes
      'style-src': `'self' 'sha256-${createHash('sha256').update('body{margin:0}\n').digest('base64')}'`,
      'img-src': "'self' data: https:",
      'font-src': "'self'",
      'connect-src': "'self'",
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': '*',
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // Framed by frame-ancestors alone; the popup keeps its opener to post the result back.
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    for (const p of ['/pay/ord_doesnotexist000000']) {
      const r = await page(p);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(cspOf(r)['script-src']).toBe("'self'");
    }
  });

  it("frame-ancestors follows the merchant's allowed origins (and the link's embed_origin)", async () => {
    const other = await newMerchant(s, { auth: m.auth, business_name: 'Framed Shop' });
    const widget = (
      await s.http({
        method: 'GET',
        path: '/api/v1/widgets',
        auth: other.auth,
        json: { merchant_key: other.merchant_key },
      })
    ).body.data[0];
    const set = await s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${widget.id}`,
      auth: other.auth,
      json: {
        merchant_key: other.merchant_key,
        allowed_origins: ['https://shop.example.com', 'http://localhost:5173'],
        logo_url: 'https://cdn.example.com/l.png',
        theme: { primary_color: '#112233' },
      },
    });
    expect(set.status).toBe(200);
    const plain = await page(`/pay/${await payLink({}, other)}`);
    expect(cspOf(plain)['frame-ancestors']).toBe('https://shop.example.com http://localhost:5173');
    expect(stateOf(plain.text).view.merchant).toEqual({
      name: 'Framed Shop',
      logo_url: 'https://cdn.example.com/l.png',
      primary_color: '#112233',
      stylesheet: '/pay/appearance.css?colorPrimary=%23112233',
      accepts_payments: true,
      restricted: false,
    });
    const embeddedId = await payLink({ embed_origin: 'https://pos.example.net' }, other);
    const embedded = await page(`/pay/${embeddedId}`);
    expect(cspOf(embedded)['frame-ancestors']).toBe(
      'https://shop.example.com http://localhost:5173 https://pos.example.net',
    );
    // The link view carries the same list (the warm pay frame renders a link only under one of them).
    const listed = ['https://shop.example.com', 'http://localhost:5173', 'https://pos.example.net'];
    expect(stateOf(embedded.text).view.frame_ancestors).toEqual(listed);
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${embeddedId}` })).body.frame_ancestors).toEqual(
      listed,
    );
    // The merchant's own list does not reach other merchants' pages.
    const anyId = await payLink();
    expect(cspOf(await page(`/pay/${anyId}`))['frame-ancestors']).toBe('*');
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${anyId}` })).body.frame_ancestors).toEqual(['*']);
  });

  it('/pay/api answers no-store, nosniff, errors included', async () => {
    for (const path of [`/pay/api/links/${await payLink()}`, '/pay/api/links/ord_nope', '/pay/api/cards/ord_nope']) {
      const res = await s.http({ method: 'GET', path });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('assets', () => {
  it('serve the build under /pay/assets/ with a year of immutable caching and their types', async () => {
    const js = await page('/pay/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.text).toBe('console.log("pay");\n');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const css = await page('/pay/assets/index-abc123.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    '/pay/assets/missing.js',
    '/pay/assets/../index.html',
    '/pay/assets/%2e%2e/index.html',
    '/pay/assets/..%2Findex.html',
    '/pay/assets/',
    '/pay/assets/.hidden',
  ])('404 for %s, never a file outside assets', async (path) => {
    const res = await page(path);
    expect(res.status).toBe(404);
    // Never the raw build file: at most the 404 page (a client that folds `..` asks for /pay/index.html).
    expect(res.text).not.toContain('<!--remit-state-->');
    if (res.text.includes('remit-state')) expect(stateOf(res.text)).toMatchObject({ page: 'error', status: 404 });
  });
});

describe('a server without the built page', () => {
  it('answers the HTML routes 503 "run npm run build"; the API still works', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'remit-no-dist-'));
    const t = await startTestServer({ payDir: empty });
    try {
      const tm = await newMerchant(t);
      const res = await t.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: tm.auth,
        json: { merchant_key: tm.merchant_key, amount: '1.00' },
      });
      const id = String(res.body.data.payment_link).split('/').pop()!;
      for (const path of [`/pay/${id}`, '/pay/ord_unknown', '/pay/card/ord_unknown']) {
        const r = await t.http({ method: 'GET', path });
        expect(r.status).toBe(503);
        expect(r.text).toContain('pay page is not built: run npm run build');
        expect(r.headers['cache-control']).toBe('no-store');
      }
      expect((await t.http({ method: 'GET', path: `/pay/api/links/${id}` })).status).toBe(200);
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('by default looks in apps/pay/dist of the repository', () => {
    expect(DEFAULT_PAY_DIST.replace(/\\/g, '/')).toMatch(/\/apps\/pay\/dist$/);
  });
});

describe('production', () => {
  it('frame-ancestors is none while the merchant allows no origin (only the link’s own embed_origin)', async () => {
    const p = await startTestServer({ env: 'production', payDir: dist });
    try {
      const c = await createCredentials(p.core.ctx);
      const pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
      const mk = async (extra: Record<string, unknown>) => {
        const res = await p.http({
          method: 'POST',
          path: '/api/v1/pay-link',
          auth: pm.auth,
          json: { merchant_key: pm.merchant_key, amount: '1.00', ...extra },
        });
        return String(res.body.data.payment_link).split('/').pop()!;
      };
      const none = await p.http({ method: 'GET', path: `/pay/${await mk({})}` });
      expect(cspOf(none)['frame-ancestors']).toBe("'none'");
      const own = await p.http({
        method: 'GET',
        path: `/pay/${await mk({ embed_origin: 'https://shop.example.com' })}`,
      });
      expect(cspOf(own)['frame-ancestors']).toBe('https://shop.example.com');
      expect(cspOf(await p.http({ method: 'GET', path: '/pay/ord_unknown' }))['frame-ancestors']).toBe("'none'");
      // No "Test mode" mark in production.
      expect((await p.http({ method: 'GET', path: `/pay/api/links/${await mk({})}` })).body.sandbox).toBe(false);
    } finally {
      await p.close();
    }
  });
});

describe('logs', () => {
  it('never carry a card or account number, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const db = testDbKind === 'postgres' ? await createTestDatabase() : null;
    const core = await openCore({
      env: 'sandbox',
      publicUrl: 'http://127.0.0.1',
      encryptionKey: randomBytes(32),
      databaseUrl: db?.url,
      filesDir: mkdtempSync(join(tmpdir(), 'remit-files-')),
    });
    const app = await buildApp(core, { logger: { level: 'trace', redact: REDACT, stream }, payDir: dist });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const c = await createCredentials(core.ctx);
      const auth = `Basic ${Buffer.from(`${c.client_id}:${c.secret_key}`).toString('base64')}`;
      const http = (
        method: string,
        path: string,
        json?: unknown,
        headers: Record<string, string> = {},
      ): Promise<{ status: number; body: any }> =>
        send({ method: method as 'POST', url: `${url}${path}`, json, headers: { authorization: auth, ...headers } });
      const { validOnboarding } = await import('../testing/fixtures.js');
      const onb = await http('POST', '/api/v1/onboarding', validOnboarding());
      const mk = onb.body.data.merchant_key;
      const list = await http('GET', '/api/v1/merchant');
      await http('POST', '/api/v1/approve-merchant', { merchant_id: list.body.data[0].merchant_id });
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const pl = await http('POST', '/api/v1/pay-link', { merchant_key: mk, amount: '2.00' });
        ids.push(String(pl.body.data.payment_link).split('/').pop()!);
      }
      const card = {
        number: '4242424242424242',
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 1,
        cvc: '987',
        name: 'Log Test',
        zip: '94105',
      };
      const paid = await http(
        'POST',
        `/pay/api/links/${ids[0]}/pay`,
        { method: 'card', card },
        { 'idempotency-key': randomUUID() },
      );
      expect(paid.status).toBe(200);
      const bank = {
        holder_name: 'Log Test',
        routing_number: '011000015',
        account_number: '99887766554433',
        account_type: 'checking',
      };
      expect(
        (
          await http(
            'POST',
            `/pay/api/links/${ids[1]}/pay`,
            { method: 'ach', bank, authorization_accepted: true },
            { 'idempotency-key': randomUUID() },
          )
        ).status,
      ).toBe(200);
      // A refused body too: error logs must not echo it.
      await http(
        'POST',
        `/pay/api/links/${ids[1]}/pay`,
        { method: 'card', card: { ...card, exp_month: 'x' } },
        { 'idempotency-key': randomUUID() },
      );
      const log = lines.join('');
      expect(log).toContain(`/pay/api/links/${ids[0]}/pay`);
      for (const secret of ['4242424242424242', '99887766554433', '"987"', c.secret_key])
        expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await core.close();
      await db?.drop();
    }
  });
});

describe('inlineStylesheets', () => {
  it('writes each built stylesheet in as <style>, hashed for the CSP; one that could close its element stays a link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-inline-'));
    try {
      writeFileSync(join(dir, 'a.css'), 'p{color:red}');
      writeFileSync(join(dir, 'b.css'), 'p::after{content:"</style><script>"}');
      const a = '<link rel="stylesheet" crossorigin href="/pay/assets/a.css">';
      const b = '<link rel="stylesheet" href="/pay/assets/b.css">';
      const out = await inlineStylesheets(`<head>${a}${b}</head>`, dir);
      expect(out.template).toBe(`<head><style>p{color:red}</style>${b}</head>`);
      expect(out.styleHashes).toEqual([`sha256-${createHash('sha256').update('p{color:red}').digest('base64')}`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fillPage', () => {
  const state = { page: 'error', status: 404 } as never;
  it("carries the render's money texts as inert JSON for the page to hydrate without Intl; none, no script", () => {
    const page = fillPage(FIXTURE_HTML, state, {
      html: '<p>x</p>',
      locale: 'en',
      title: 'T',
      formatted: { 'en-US USD 1000': '$10.00', x: '</script><b>' },
    });
    expect(page).toContain(
      '<script id="remit-formatted" type="application/json">{"en-US USD 1000":"$10.00","x":"\\u003c/script>\\u003cb>"}</script></head>',
    );
    expect(fillPage(FIXTURE_HTML, state, { html: '', locale: 'en', title: 'T', formatted: {} })).not.toContain(
      'remit-formatted',
    );
    expect(fillPage(FIXTURE_HTML, state, { html: '', locale: 'en', title: 'T' })).not.toContain('remit-formatted');
  });
});
