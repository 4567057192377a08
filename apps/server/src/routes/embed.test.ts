import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { DEFAULT_RETENTION, purgeNow } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { verifyWebhook } from '@remit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { rows } from '../testing/payments.js';
import { portalSignIn } from '../testing/portal.js';
import { DEFAULT_WIDGET_LIMITS } from '../plugins/widget-limits.js';
import { DEFAULT_LOADER_DIST, DEFAULT_WIDGETS_DIST } from './widget-assets.js';

/**
 * The SAQ A kit over HTTP: the pinned loader and its chunk, `GET /merchant/embed-policy`, the
 * violation reports a page sends (`POST /csp-reports/{public_key}`), their list and webhook, and
 * `GET /merchant/saq-a`. The browser side (a page under exactly that policy) is e2e/saq-a.test.ts.
 */

let s: TestServer;
let rx: Receiver;
let m: TestMerchant;
let other: TestMerchant;
let secret: string;
beforeAll(async () => {
  s = await startTestServer({
    workers: { webhooks: { pollMs: 10 } },
    widgetLimits: {
      ...DEFAULT_WIDGET_LIMITS,
      cspReportsPerAddress: { name: 'csp_reports_address', limit: 12, windowMs: 60_000 },
    },
    operator: { name: 'Example Payments LLC', contact: 'compliance@payments.example' },
    trustProxy: true, // each test's reports come from an address of its own (X-Forwarded-For)
  });
  rx = await startReceiver();
  const auth = await s.credentials();
  secret = (
    await s.http({ method: 'POST', path: '/api/v1/client/update-webhooks-url', auth, json: { webhook_url: rx.url } })
  ).body.signing_secret;
  m = await newMerchant(s, { auth, business_name: 'Pinned Shop' });
  other = await newMerchant(s, { business_name: 'Other Shop' });
});
afterAll(async () => {
  await s.close();
  await rx.close();
});

const sha384 = (b: Buffer | string) => `sha384-${createHash('sha384').update(b).digest('base64')}`;
const policyOf = async (who: TestMerchant = m) =>
  (
    await s.http({
      method: 'GET',
      path: `/api/v1/merchant/embed-policy?merchant_key=${encodeURIComponent(who.merchant_key)}`,
      auth: who.auth,
    })
  ).body.data;
const report = (key: string, body: string, type = 'application/csp-report', from = '192.0.2.1') =>
  s.http({
    method: 'POST',
    path: `/csp-reports/${key}`,
    raw: body,
    headers: { 'content-type': type, 'x-forwarded-for': from },
  });
const legacy = (blocked: string, directive = 'script-src-elem', page = 'http://shop.test/checkout') =>
  JSON.stringify({
    'csp-report': {
      'document-uri': page,
      'blocked-uri': blocked,
      'effective-directive': directive,
      'violated-directive': directive,
      'original-policy': "script-src 'self'",
      disposition: 'enforce',
    },
  });
const reportsOf = async (who: TestMerchant = m, query = '') =>
  (
    await s.http({
      method: 'GET',
      path: `/api/v1/merchant/csp-reports?merchant_key=${encodeURIComponent(who.merchant_key)}${query}`,
      auth: who.auth,
    })
  ).body;

describe('the pinned loader', () => {
  it('GET /merchant/embed-policy: the versioned address, its sha384, the exact tag and policy', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/embed-policy',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(200);
    const built = readFileSync(`${DEFAULT_LOADER_DIST}/dynamic-launch.js`);
    const integrity = sha384(built);
    const version = createHash('sha384').update(built).digest('base64url').slice(0, 16);
    const base = s.url;
    const loaderUrl = `${base}/js/dynamic-launch.${version}.js?remit_merchant_public_key=${m.public_key}`;
    const reportUri = `${base}/csp-reports/${m.public_key}`;
    expect(res.body).toEqual({
      result: true,
      message: 'Embed policy.',
      data: {
        loader_url: loaderUrl,
        integrity,
        script_tag: `<script src="${loaderUrl}" integrity="${integrity}" crossorigin="anonymous"></script>`,
        csp:
          `script-src 'self' ${base}; connect-src 'self' ${base}; frame-src ${base}; ` +
          `object-src 'none'; base-uri 'self'; report-uri ${reportUri}`,
        report_uri: reportUri,
        report_to: `remit="${reportUri}"`,
      },
    });
    // Another merchant's policy names its own key and report address.
    expect((await policyOf(other)).report_uri).toBe(`${base}/csp-reports/${other.public_key}`);
  });

  it('the versioned loader: bytes that hash to the published integrity, immutable, readable in CORS mode', async () => {
    const p = await policyOf();
    const res = await fetch(p.loader_url);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(sha384(bytes)).toBe(p.integrity);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // The plain address keeps working, with the same bytes, cached briefly.
    const plain = await fetch(`${s.url}/js/dynamic-launch.js?remit_merchant_public_key=${m.public_key}`);
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(bytes);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=60');
    // Any other version is a 404: an address never serves other bytes.
    const stale = await fetch(`${s.url}/js/dynamic-launch.AAAAAAAAAAAAAAAA.js`);
    expect(stale.status).toBe(404);
  });

  it('the chunk the loader adds carries its integrity and crossorigin, and its bytes match', async () => {
    const loader = await (await fetch((await policyOf()).loader_url)).text();
    const chunk = (JSON.parse(readFileSync(`${DEFAULT_WIDGETS_DIST}/manifest.json`, 'utf8')) as { file: string }).file;
    const pinned = /integrity="(sha384-[A-Za-z0-9+/=]+)",\w+\.crossOrigin=""/.exec(loader);
    expect(pinned, 'the loader sets integrity and crossOrigin on the chunk').not.toBeNull();
    const res = await fetch(`${s.url}/js/${chunk}`);
    expect(sha384(Buffer.from(await res.arrayBuffer()))).toBe(pinned![1]);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('violation reports', () => {
  it('application/csp-report and application/reports+json are stored and listed, newest first, paged', async () => {
    expect((await report(m.public_key, legacy('https://evil.test/skim.js'))).status).toBe(204);
    const reportingApi = JSON.stringify([
      {
        type: 'csp-violation',
        age: 3,
        url: 'http://shop.test/checkout',
        user_agent: 'test',
        body: {
          documentURL: 'http://shop.test/checkout',
          blockedURL: 'inline',
          effectiveDirective: 'script-src-elem',
          disposition: 'enforce',
        },
      },
      { type: 'deprecation', url: 'http://shop.test/', body: { id: 'x' } },
    ]);
    expect((await report(m.public_key, reportingApi, 'application/reports+json')).status).toBe(204);
    const all = await reportsOf();
    expect(all.total).toBe(2);
    expect(all.data).toEqual([
      {
        id: expect.stringMatching(/^csp_/),
        blocked_uri: 'inline',
        directive: 'script-src-elem',
        document_uri: 'http://shop.test/checkout',
        disposition: 'enforce',
        remit_resource: false,
        received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
      expect.objectContaining({ blocked_uri: 'https://evil.test/skim.js', remit_resource: false }),
    ]);
    const page = await reportsOf(m, '&limit=1&pageNumber=1');
    expect(page.data.map((r: { blocked_uri: string }) => r.blocked_uri)).toEqual(['https://evil.test/skim.js']);
    expect(page.total).toBe(2);
    // Another merchant sees none of them.
    expect((await reportsOf(other)).total).toBe(0);
  });

  it("a report about Remit's own script or frame is flagged", async () => {
    expect((await report(m.public_key, legacy(`${s.url}/pay/ord_x`, 'frame-src'))).status).toBe(204);
    expect((await reportsOf()).data[0]).toMatchObject({ blocked_uri: `${s.url}/pay/ord_x`, remit_resource: true });
  });

  it('merchant.csp_violation: signed, once per blocked address an hour', async () => {
    const before = await rows<{ n: number }>(
      s,
      sql`select count(*)::int as n from events where event_type = 'merchant.csp_violation'`,
    );
    for (let i = 0; i < 3; i++)
      expect((await report(m.public_key, legacy('https://evil.test/again.js'))).status).toBe(204);
    await rx.waitFor(
      () => rx.received.some((r) => JSON.parse(r.body).data?.blocked_uri === 'https://evil.test/again.js'),
      20_000,
    );
    const sent = rx.received
      .map((r) => verifyWebhook(secret, r.headers, r.body))
      .filter((e) => e.event_type === 'merchant.csp_violation');
    const again = sent.filter((e) => e.data.blocked_uri === 'https://evil.test/again.js');
    expect(again).toHaveLength(1);
    expect(again[0]!.data).toEqual({
      merchant_id: m.merchant_id,
      report_id: expect.stringMatching(/^csp_/),
      blocked_uri: 'https://evil.test/again.js',
      directive: 'script-src-elem',
      document_uri: 'http://shop.test/checkout',
      remit_resource: false,
    });
    const [after] = await rows<{ n: number }>(
      s,
      sql`select count(*)::int as n from events where event_type = 'merchant.csp_violation'`,
    );
    expect(after!.n - before[0]!.n).toBe(1);
    // Three reports stored all the same.
    const stored = await rows(s, sql`select id from csp_reports where blocked_uri = 'https://evil.test/again.js'`);
    expect(stored).toHaveLength(3);
    // An hour later the same address is news again.
    await s.core.ctx.db.execute(
      sql`update csp_reports set created_at = created_at - interval '61 minutes' where blocked_uri = 'https://evil.test/again.js'`,
    );
    expect((await report(m.public_key, legacy('https://evil.test/again.js'))).status).toBe(204);
    const [later] = await rows<{ n: number }>(
      s,
      sql`select count(*)::int as n from events where event_type = 'merchant.csp_violation'`,
    );
    expect(later!.n - before[0]!.n).toBe(2);
  });

  it('junk, other types, oversized bodies and unknown keys are refused, and nothing is stored', async () => {
    const count = async () => (await rows<{ n: number }>(s, sql`select count(*)::int as n from csp_reports`))[0]!.n;
    const n = await count();
    const csp = 'application/csp-report';
    const api = 'application/reports+json';
    const from = '192.0.2.2';
    const refusals: Array<[Awaited<ReturnType<typeof report>>, number]> = [
      [await report(m.public_key, 'not json', csp, from), 400],
      [await report(m.public_key, '{"hello":"world"}', csp, from), 400],
      [await report(m.public_key, '[]', api, from), 400],
      [await report(m.public_key, JSON.stringify([{ type: 'deprecation', body: {} }]), api, from), 400],
      [await report(m.public_key, legacy('x'), 'text/plain', from), 415],
      [await report(m.public_key, legacy('x'.repeat(17 * 1024)), csp, from), 413],
      [await report('pk_test_nobody0000', legacy('https://evil.test/a.js'), csp, from), 401],
      [await report('not-a-key', legacy('https://evil.test/a.js'), csp, from), 401],
    ];
    for (const [res, status] of refusals) {
      expect(res.status, res.text).toBe(status);
      expect(res.body).toMatchObject({ result: false, code: expect.any(String) });
    }
    expect(await count()).toBe(n);
  });

  it('a preflight from any page passes (the Reporting API sends with CORS)', async () => {
    const res = await s.http({
      method: 'OPTIONS',
      path: `/csp-reports/${m.public_key}`,
      headers: { origin: 'http://shop.test', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toBe('content-type');
  });

  it('each address is rate limited (429 with Retry-After)', async () => {
    let last;
    for (let i = 0; i < 13; i++)
      last = await report(other.public_key, legacy(`https://evil.test/${i}.js`), 'application/csp-report', '192.0.2.3');
    expect(last!.status).toBe(429);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.body).toMatchObject({ result: false, code: 'rate_limited' });
    // Another address is not held back by it.
    expect(
      (await report(other.public_key, legacy('https://evil.test/z.js'), 'application/csp-report', '192.0.2.4')).status,
    ).toBe(204);
  });

  it('kept for REMIT_RETENTION_CSP_REPORTS_DAYS (90 by default), then purged', async () => {
    await s.core.ctx.db.execute(
      sql`update csp_reports set created_at = now() - interval '91 days' where blocked_uri = 'https://evil.test/skim.js'`,
    );
    const purged = await purgeNow(s.core.ctx, DEFAULT_RETENTION);
    expect(purged.csp_reports).toBe(1);
    expect(await rows(s, sql`select id from csp_reports where blocked_uri = 'https://evil.test/skim.js'`)).toEqual([]);
    expect((await reportsOf()).data.length).toBeGreaterThan(0);
  });
});

describe('GET /merchant/saq-a', () => {
  it('HTML, printable, with the exact tag, integrity and policy, the operator, origins and violations', async () => {
    await s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${(await s.http({ method: 'GET', path: '/api/v1/widgets', auth: m.auth, json: { merchant_key: m.merchant_key } })).body.data[0].id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, allowed_origins: ['https://shop.example.com'] },
    });
    const p = await policyOf();
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/saq-a',
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    const esc = (t: string) =>
      t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    expect(res.text).toContain(esc(p.script_tag));
    expect(res.text).toContain(p.integrity);
    expect(res.text).toContain(esc(p.csp));
    expect(res.text).toContain('Example Payments LLC (compliance@payments.example)');
    expect(res.text).toContain('https://shop.example.com');
    expect(res.text).toContain('https://evil.test/again.js');
    expect(res.text).toContain('not susceptible to attacks from scripts');
    expect(res.text).toContain(new Date().toISOString().slice(0, 10));
    expect(res.text).not.toMatch(/<script/i);
  });

  it('Markdown on Accept: text/markdown', async () => {
    const p = await policyOf();
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/saq-a?merchant_key=${encodeURIComponent(m.merchant_key)}`,
      auth: m.auth,
      headers: { accept: 'text/markdown' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.text).toContain('```\n' + p.script_tag + '\n```');
    expect(res.text).toContain('```\n' + p.csp + '\n```');
    expect(res.text).toContain(`Its integrity: ${p.integrity}`);
    expect(res.text).toMatch(/^# SAQ A: script security of Pinned Shop's payment page/);
  });

  it('a merchant key of another client, or none, is refused', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/saq-a',
      auth: other.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(401);
    const none = await s.http({ method: 'GET', path: '/api/v1/merchant/embed-policy', auth: m.auth });
    expect(none.status).toBe(400);
  });
});

describe('the portal', () => {
  it("GET /portal/api/merchants/{id}/embed-policy: the same tag and policy, for the signed-in client's merchant only", async () => {
    const creds = await s.credentials();
    const p = await portalSignIn(s, creds);
    const example = (await p.call('GET', '/onboarding-example')).body;
    const mine = (await p.call('POST', '/merchants', example)).body.merchant;
    const res = await p.call('GET', `/merchants/${mine.merchant_id}/embed-policy`);
    expect(res.status).toBe(200);
    const viaApi = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/embed-policy',
      auth: creds,
      json: { merchant_key: mine.merchant_key },
    });
    expect(res.body).toEqual(viaApi.body.data);
    const theirs = await p.call('GET', `/merchants/${m.merchant_id}/embed-policy`);
    expect(theirs.status).toBe(404);
  });
});
