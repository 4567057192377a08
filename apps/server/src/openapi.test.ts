import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

it('is public OpenAPI 3.1 whose paths resolve against its server: API, sandbox and portal alike', async () => {
  const res = await s.http({ method: 'GET', path: '/api/v1/openapi.json' });
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe('3.1.0');
  expect(res.body.servers).toEqual([expect.objectContaining({ url: s.url })]);
  const paths = Object.keys(res.body.paths);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/api/v1/onboarding',
      '/api/v1/merchant/transactions',
      '/api/v1/customers/charge/{customerId}',
      '/api/v1/order/sales-return',
      '/sandbox/advance-clock',
      '/portal/api/credentials',
    ]),
  );
  // Every documented path answers something other than "no such route" at that address.
  for (const path of paths) {
    const method = Object.keys(res.body.paths[path])[0]!.toUpperCase();
    const probe = await s.http({ method, path: path.replace(/\{[^}]+\}/g, 'x') });
    expect(probe.body?.code, `${method} ${path}`).not.toBe('route_not_found');
  }
  expect(res.body.components.securitySchemes.basicAuth).toEqual({ type: 'http', scheme: 'basic' });
});

it('the docs page is served', async () => {
  const res = await s.http({ method: 'GET', path: '/docs/' });
  expect(res.status).toBe(200);
  expect(res.text).toContain('swagger');
});
