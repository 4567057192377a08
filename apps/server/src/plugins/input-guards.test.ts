import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let auth: [string, string];
beforeAll(async () => {
  s = await startTestServer();
  auth = await s.credentials();
});
afterAll(() => s.close());

const NUL_RULE = 'must not contain a NUL character';

describe('input guards', () => {
  it('refuses a NUL in a JSON body field with 400 naming the field', async () => {
    const res = await s.http({ method: 'POST', path: '/api/v1/pay-link', auth, json: { merchant_key: 'mk', order_id: 'a\u0000b', amount: '1' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_request', errors: [{ path: 'order_id', message: NUL_RULE }] });
  });

  it('looks into nested objects and GET bodies', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/merchant/transactions', auth, json: { merchant_key: 'mk', x: { y: ['ok', 'n\u0000'] } } });
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
});
