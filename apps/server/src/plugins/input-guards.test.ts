import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding } from '../testing/fixtures.js';

let s: TestServer;
let auth: [string, string];
beforeAll(async () => {
  s = await startTestServer();
  auth = await s.credentials();
});
afterAll(() => s.close());

const NUL_RULE = 'must not contain a NUL character';
const SURROGATE_RULE = 'must not contain an unpaired UTF-16 surrogate';
const ENCODING_RULE = 'must be UTF-8 text, correctly percent-encoded';

describe('input guards', () => {
  it('refuses a NUL in a JSON body field with 400 naming the field', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth,
      json: { merchant_key: 'mk', order_id: 'a\u0000b', amount: '1' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: false,
      code: 'invalid_request',
      errors: [{ path: 'order_id', message: NUL_RULE }],
    });
  });

  it('looks into nested objects and GET bodies', async () => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/merchant/transactions',
      auth,
      json: { merchant_key: 'mk', x: { y: ['ok', 'n\u0000'] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'x.y.1', message: NUL_RULE }]);
  });

  it('covers the query string and path parameters', async () => {
    const q = await s.http({ method: 'GET', path: '/api/v1/merchant/transactions?merchant_key=a%00b', auth });
    expect(q.status).toBe(400);
    expect(q.body.errors).toEqual([{ path: 'merchant_key', message: NUL_RULE }]);
    const p = await s.http({ method: 'GET', path: '/api/v1/merchant/a%00b', auth });
    expect(p.status).toBe(400);
    expect(p.body.errors).toEqual([{ path: 'merchant_id', message: NUL_RULE }]);
  });

  it('answers a path parameter over the router limit with the error envelope', async () => {
    const res = await s.http({ method: 'GET', path: `/api/v1/merchant/${'x'.repeat(500)}`, auth });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({
      result: false,
      message: 'A path parameter is too long; no resource has such an id.',
      code: 'invalid_request',
      request_id: expect.any(String),
    });
  });

  describe('a lone UTF-16 surrogate ("\\ud800") is refused with 400 naming the field, nothing stored', () => {
    it('in onboarding (was a 500), nested or not', async () => {
      const before = await tableCounts(s.core);
      const top = await s.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth,
        json: validOnboarding({ business_name: 'Shop \ud800' }),
      });
      expect(top.status).toBe(400);
      expect(top.body).toMatchObject({
        result: false,
        code: 'invalid_request',
        errors: [{ path: 'BusinessInfo.business_name', message: SURROGATE_RULE }],
      });
      const base = validOnboarding() as Record<string, any>;
      const nested = { ...base, OwnerInfo: { ...base.OwnerInfo, first_name: 'Ada\udc00' } };
      const deep = await s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: nested });
      expect(deep.status).toBe(400);
      expect(deep.body.errors).toEqual([{ path: 'OwnerInfo.first_name', message: SURROGATE_RULE }]);
      expect(await tableCounts(s.core)).toEqual(before);
    });

    it('a well-formed pair (an emoji) is still text', async () => {
      const res = await s.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth,
        json: validOnboarding({ business_name: 'Shop \ud83d\ude00' }),
      });
      expect(res.status).toBe(201);
      expect(res.body.data.businessname).toBe('Shop \u{1F600}');
      // Stored as sent, not as U+FFFD.
      const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth });
      expect(JSON.stringify(list.body)).toContain('Shop \u{1F600}');
    });

    it('in other JSON routes, form bodies, GET bodies and the pay page API', async () => {
      const m = await newMerchant(s, { auth });
      const ok = await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth,
        json: { merchant_key: m.merchant_key, amount: '1.00' },
      });
      const linkId = String(ok.body.data?.payment_link ?? ok.body.payment_link ?? '')
        .split('/')
        .pop();
      expect(linkId).toBeTruthy();
      const before = await tableCounts(s.core);
      const link = await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth,
        json: { merchant_key: m.merchant_key, amount: '1.00', order_id: 'o\ud800' },
      });
      expect(link.status).toBe(400);
      expect(link.body.errors).toEqual([{ path: 'order_id', message: SURROGATE_RULE }]);
      const form = await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth,
        raw: `merchant_key=${m.merchant_key}&amount=1.00&order_id=o%ED%A0%80`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(400);
      expect(form.body.errors).toEqual([{ path: 'order_id', message: ENCODING_RULE }]);
      const get = await s.http({
        method: 'GET',
        path: '/api/v1/merchant/transactions',
        auth,
        json: { merchant_key: m.merchant_key, order_id: '\udfff' },
      });
      expect(get.status).toBe(400);
      expect(get.body.errors).toEqual([{ path: 'order_id', message: SURROGATE_RULE }]);
      const pay = await s.http({
        method: 'POST',
        path: `/pay/api/links/${linkId}/pay`,
        headers: { 'idempotency-key': 'k1' },
        json: {
          method: 'card',
          card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123', zip: '94105' },
          name: 'A\ud800',
          email: 'a@example.com',
        },
      });
      expect(pay.status).toBe(400);
      expect(pay.body.errors).toEqual([{ path: 'name', message: SURROGATE_RULE }]);
      expect(await tableCounts(s.core)).toEqual(before);
    });

    it('in the query string: a surrogate spelled in bytes (%ED%A0%80) or any non-UTF-8 escape is a 400 naming the parameter, not taken literally', async () => {
      for (const bad of ['%ED%A0%80', '%FF', 'ok%E2%82']) {
        const q = await s.http({
          method: 'GET',
          path: `/api/v1/merchant/transactions?limit=5&merchant_key=${bad}`,
          auth,
        });
        expect(q.status).toBe(400);
        expect(q.body).toMatchObject({
          result: false,
          code: 'invalid_request',
          errors: [{ path: 'merchant_key', message: ENCODING_RULE }],
        });
      }
      const both = await s.http({
        method: 'GET',
        path: '/api/v1/merchant/transactions?merchant_key=a&merchant_key=%FF',
        auth,
      });
      expect(both.status).toBe(400);
      expect(both.body.errors).toEqual([{ path: 'merchant_key.1', message: ENCODING_RULE }]);
    });

    it('well-formed percent-encoding still decodes (a merchant_key in the query string works)', async () => {
      const m = await newMerchant(s, { auth });
      const q = await s.http({
        method: 'GET',
        path: `/api/v1/merchant/transactions?merchant_key=${encodeURIComponent(m.merchant_key)}&x=caf%C3%A9+au+lait`,
        auth,
      });
      expect(q.status).toBe(200);
    });
  });
});
