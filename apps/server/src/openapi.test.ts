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

it('the reference at /docs opens on the merchant API and ends with the callbacks; every operation in a listed section', async () => {
  const res = await s.http({ method: 'GET', path: '/docs/json' });
  expect(res.status).toBe(200);
  const names = (res.body.tags as Array<{ name: string }>).map((t) => t.name);
  expect(names.slice(0, 3)).toEqual(['pay links', 'payment requests', 'orders']);
  expect(names.at(-1)).toBe('callbacks');
  expect(names.indexOf('sandbox')).toBeGreaterThan(names.indexOf('webhooks'));
  const unlisted = new Set<string>();
  for (const ops of Object.values<Record<string, { tags?: string[] }>>(res.body.paths))
    for (const op of Object.values(ops))
      for (const tag of op.tags ?? ['(none)']) if (!names.includes(tag)) unlisted.add(tag);
  expect([...unlisted]).toEqual([]);
});

it('the docs page is served', async () => {
  const res = await s.http({ method: 'GET', path: '/docs/' });
  expect(res.status).toBe(200);
  expect(res.text).toContain('swagger');
});
