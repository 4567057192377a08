import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MERCHANT_MESSAGE, UNAUTHORIZED_PUBLIC_KEY_MESSAGE } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newCustomer } from '../testing/payments.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { registerErrorHandling } from './errors.js';
import { registerMerchant } from './merchant.js';

let s: TestServer;
let a: TestMerchant;
let b: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  a = await newMerchant(s);
  b = await newMerchant(s); // another client
});
afterAll(() => s.close());

const unauthorized = { result: false, code: 'invalid_merchant_key', message: UNAUTHORIZED_MERCHANT_MESSAGE };

describe('merchant_key resolved at the edge', () => {
  it('from the query string of a GET', async () => {
    const res = await s.http({
      method: 'GET',
      path: `/api/v1/customers?merchant_key=${encodeURIComponent(a.merchant_key)}`,
      auth: a.auth,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ allList: [], totalCount: 0 });
  });

  it('from the JSON body of a GET, which wins over the query string', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions?merchant_key=mk_test_nope',
      auth: a.auth,
      json: { merchant_key: a.merchant_key },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, data: [], total: 0 });
  });

  it('from a form-encoded body', async () => {
    const ok = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: a.auth,
      form: { merchant_key: a.merchant_key, amount: '3.00' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.payment_link).toMatch(/^http/);
    const before = await tableCounts(s.core);
    const foreign = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: a.auth,
      form: { merchant_key: b.merchant_key, amount: '3.00' },
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject(unauthorized);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('unknown, malformed and another client’s keys are one 401, in the query string and the body alike', async () => {
    const before = await tableCounts(s.core);
    const keys = [
      b.merchant_key,
      'mk_test_' + 'Z'.repeat(32),
      'x',
      'mk_live_' + a.merchant_key.slice(8),
      'k'.repeat(200),
    ];
    for (const key of keys) {
      const get = await s.http({
        method: 'GET',
        path: `/api/v1/customers?merchant_key=${encodeURIComponent(key)}`,
        auth: a.auth,
      });
      const post = await s.http({
        method: 'POST',
        path: '/api/v1/customers/add',
        auth: a.auth,
        json: { merchant_key: key, first_name: 'Eve' },
      });
      for (const res of [get, post]) {
        expect(res.status, key).toBe(401);
        expect(res.body).toMatchObject(unauthorized);
        expect(Object.keys(res.body).sort()).toEqual(['code', 'message', 'request_id', 'result']);
      }
    }
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('a key that is not a string is still a 400 from validation, before the merchant is looked at', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: a.auth,
      json: { merchant_key: 42, amount: '3.00' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('the multipart deposit reads the key from its field: another client’s key is the same 401, nothing written', async () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({ amount: '10.00', merchant_key: b.merchant_key, device: 'test' }))
      fd.append(k, v);
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new Array(100).fill(1)]);
    fd.append('front_file', new Blob([jpeg]), 'f.jpg');
    fd.append('back_file', new Blob([jpeg]), 'b.jpg');
    const req = new Request('http://x/', { method: 'POST', body: fd });
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/merchant/remote_deposit_capture',
      auth: a.auth,
      raw: Buffer.from(await req.arrayBuffer()),
      headers: { 'content-type': req.headers.get('content-type')! },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(unauthorized);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('routes that act on no merchant ignore merchant_key', async () => {
    const list = await s.http({ method: 'GET', path: '/api/v1/merchant?merchant_key=mk_test_nope', auth: a.auth });
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([a.merchant_id]);
  });

  it('the sandbox inbox filters by an optional key, and refuses a foreign one the same way', async () => {
    const all = await s.http({ method: 'GET', path: '/sandbox/messages', auth: a.auth });
    expect(all.status).toBe(200);
    const foreign = await s.http({
      method: 'GET',
      path: `/sandbox/messages?merchant_key=${encodeURIComponent(b.merchant_key)}`,
      auth: a.auth,
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body).toMatchObject(unauthorized);
  });
});

describe('public key plus Origin (the widgets’ resolver)', () => {
  async function widgetApp(allowed: Record<string, string[]>) {
    const app = Fastify();
    registerErrorHandling(app);
    registerMerchant(app, s.core.ctx, { allowedOrigins: (m) => allowed[m.id] ?? [] });
    app.post('/widget/whoami', { config: { merchant: 'public_key' } }, async (req) => ({
      merchant_id: req.merchant.id,
    }));
    await app.ready();
    return app;
  }
  const call = (app: Awaited<ReturnType<typeof widgetApp>>, public_key: unknown, origin?: string) =>
    app.inject({ method: 'POST', url: '/widget/whoami', payload: { public_key }, headers: origin ? { origin } : {} });

  it('resolves the merchant whose public key it is, from an origin that merchant allowed', async () => {
    const app = await widgetApp({ [a.merchant_id]: ['https://shop.example'] });
    const res = await call(app, a.public_key, 'https://shop.example');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ merchant_id: a.merchant_id });
    await app.close();
  });

  it('a missing Origin and an origin not allowed are 403 origin_not_allowed', async () => {
    const app = await widgetApp({ [a.merchant_id]: ['https://shop.example'] });
    const refusals = [
      await call(app, a.public_key, 'https://evil.example'),
      await call(app, a.public_key),
      await call(app, b.public_key, 'https://shop.example'), // b allows no origin
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ result: false, code: 'origin_not_allowed' });
    }
    await app.close();
  });

  it('an unknown or malformed key is one 401', async () => {
    const app = await widgetApp({ [a.merchant_id]: ['https://shop.example'] });
    const refusals = [
      await call(app, 'pk_test_nope', 'https://shop.example'),
      await call(app, 7, 'https://shop.example'),
      await call(app, a.merchant_key, 'https://shop.example'), // a secret key is not a public key
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        result: false,
        code: 'invalid_public_key',
        message: UNAUTHORIZED_PUBLIC_KEY_MESSAGE,
      });
    }
    await app.close();
  });

  it('refuses every origin until the merchant allows one (the default)', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    registerMerchant(app, s.core.ctx);
    app.post('/w', { config: { merchant: 'public_key' } }, async (req) => ({ id: req.merchant.id }));
    const res = await app.inject({
      method: 'POST',
      url: '/w',
      payload: { public_key: a.public_key },
      headers: { origin: 'https://shop.example' },
    });
    expect(res.statusCode).toBe(403);
    await app.close();
  });
});

describe('the merchant cache when no statement reads the epoch (every API limit off)', () => {
  const off = { name: 'off', limit: 0, windowMs: 0 };
  let quiet: TestServer;
  let sent: string[] = [];
  beforeAll(async () => {
    quiet = await startTestServer({
      rateLimits: { apiPerClient: off, authFailuresPerClientAddress: off, authFailuresPerAddress: off },
      onStatement: (text) => void sent.push(text),
    });
  });
  afterAll(() => quiet.close());

  it('a change is still seen by the next request: with no epoch read (limits off), the merchant is looked up each time, on both databases', async () => {
    const m = await newMerchant(quiet);
    const customer = await newCustomer(quiet, m);
    const chargeIt = () =>
      quiet.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${customer}`,
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: 1, order_id: 'off', preAuth: false },
      });
    expect((await chargeIt()).status).toBe(200);
    sent = [];
    expect((await chargeIt()).status).toBe(200);
    const lookups = sent.filter((q) => /^\s*select\b[\s\S]*\bfrom "merchants"/i.test(q)).length;
    expect(lookups).toBe(1);
    expect(sent.some((q) => q.includes('merchant_epoch') && !/from "merchants"/.test(q))).toBe(false);
    await quiet.core.ctx.db.execute(sql`update merchants set status = 'suspended' where id = ${m.merchant_id}`);
    const refused = await chargeIt();
    expect([refused.status, refused.body.code]).toEqual([400, 'merchant_suspended']);
  });
});
