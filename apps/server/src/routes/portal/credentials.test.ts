import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('sandbox credentials and authentication', () => {
  it('POST /portal/api/credentials makes a sandbox client', async () => {
    const res = await s.http({ method: 'POST', path: '/portal/api/credentials' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['client_id', 'secret_key']);
    expect(res.body.client_id).toMatch(/^cl_[0-9A-Za-z]{20}$/);
    expect(res.body.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
  });

  it('stores only a digest of the secret', async () => {
    const [id, secret] = await s.credentials();
    const { sql } = await import('drizzle-orm');
    const r = (await s.core.ctx.db.execute(sql`select * from clients where id = ${id}`)) as unknown as {
      rows: object[];
    };
    expect(JSON.stringify(r.rows)).not.toContain(secret);
  });

  it('GET /healthz answers ok', async () => {
    const res = await s.http({ method: 'GET', path: '/healthz' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it.each([
    ['missing', undefined],
    ['not basic', 'Bearer abc'],
    ['wrong secret', `Basic ${Buffer.from('cl_x:sk_test_nope').toString('base64')}`],
  ])('401 with the envelope when credentials are %s', async (_name, authorization) => {
    const res = await s.http({
      method: 'GET',
      path: '/api/v1/openapi-not-public',
      headers: authorization ? { authorization } : {},
    });
    // Unknown routes are 404 whatever the credentials; use a real route for the 401.
    expect(res.status).toBe(404);
    const real = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      json: {},
      headers: authorization ? { authorization } : {},
    });
    expect(real.status).toBe(401);
    expect(real.body).toMatchObject({ result: false, code: 'unauthorized' });
    expect(typeof real.body.message).toBe('string');
  });

  it('a live key on the sandbox server gets 401 saying so', async () => {
    const [id] = await s.credentials();
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      json: {},
      headers: { authorization: `Basic ${Buffer.from(`${id}:sk_live_${'a'.repeat(32)}`).toString('base64')}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('production');
  });

  it('after a good call, a wrong secret for the same client is still a 401 (the cache keeps only the digest)', async () => {
    const [id, secret] = await s.credentials();
    const good = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: [id, secret] });
    expect(good.status).toBe(200);
    const wrong = await s.http({
      method: 'GET',
      path: '/api/v1/merchant',
      auth: [id, `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}`],
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ result: false, code: 'unauthorized', message: 'Invalid client credentials.' });
  });
});
