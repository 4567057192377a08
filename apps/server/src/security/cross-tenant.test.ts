import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema, UNAUTHORIZED_MERCHANT_MESSAGE } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { makeTenant, merchantKeyRoutes, requestFor, type Tenant } from './route-table.js';

/**
 * Tenant isolation: a client using another client's merchant_key gets exactly what an unknown
 * key gets (401, same body but request_id), on every route that takes one, and nothing changes.
 */

let s: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  s = await startTestServer();
  a = await makeTenant(s, 'Tenant A');
  b = await makeTenant(s, 'Tenant B');
});
afterAll(() => s.close());

const withoutRequestId = (body: Record<string, unknown>) => {
  const { request_id, ...rest } = body;
  expect(typeof request_id).toBe('string');
  return rest;
};

/** The transaction rows of a tenant, to show nothing about them moved. */
async function snapshot(t: Tenant) {
  return s.core.ctx.db.select().from(schema.transactions).where(eq(schema.transactions.merchantId, t.merchant_id));
}

describe.each([
  ['B uses A', () => [b, a] as const],
  ['A uses B', () => [a, b] as const],
])('%s’s merchant_key', (_name, pair) => {
  it.each(merchantKeyRoutes.map((r) => [r.name, r] as const))(
    '%s → the unknown-key 401, nothing written',
    async (_n, rc) => {
      const [caller, victim] = pair();
      const before = await tableCounts(s.core);
      const victimRows = await snapshot(victim);

      // The victim's merchant_key, aimed at the victim's own resources: the strongest probe.
      const foreign = await s.http({ ...requestFor(rc, victim), auth: caller.auth });
      const unknownBody = { ...rc.body(victim), merchant_key: `mk_test_${'Z'.repeat(32)}` };
      const unknown = await s.http({ ...requestFor(rc, victim, unknownBody), auth: caller.auth });

      expect(foreign.status, foreign.text).toBe(401);
      expect(unknown.status, unknown.text).toBe(401);
      expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
      expect(foreign.body.message).toBe(UNAUTHORIZED_MERCHANT_MESSAGE);
      expect(foreign.body.code).toBe('invalid_merchant_key');
      expect(await tableCounts(s.core)).toEqual(before);
      expect(await snapshot(victim)).toEqual(victimRows);
    },
  );
});

describe("own merchant_key, the other tenant's resources", () => {
  const idRoutes = merchantKeyRoutes.filter((r) => r.pathParam || 'transaction_id' in r.fields);
  it.each(idRoutes.map((r) => [r.name, r] as const))('%s → 4xx, nothing written', async (_n, rc) => {
    const before = await tableCounts(s.core);
    const victimRows = await snapshot(a);
    // B's own key, with A's ids in the path and body.
    const body = { ...rc.body(a), merchant_key: b.merchant_key };
    const res = await s.http({ ...requestFor(rc, a, body), auth: b.auth });
    expect([400, 404], `${res.status} ${res.text}`).toContain(res.status);
    expect(res.body.result ?? res.body.status).toBe(false);
    expect(await tableCounts(s.core)).toEqual(before);
    expect(await snapshot(a)).toEqual(victimRows);
  });
});

describe('merchants of another client', () => {
  it("GET /merchant/{id} of another client's merchant is 404, like an unknown id", async () => {
    const foreign = await s.http({ method: 'GET', path: `/api/v1/merchant/${a.merchant_id}`, auth: b.auth });
    const unknown = await s.http({ method: 'GET', path: '/api/v1/merchant/m_doesnotexist', auth: b.auth });
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    expect(foreign.text).not.toContain(a.merchant_key);
  });

  it("GET /merchant lists only the caller's merchants", async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: b.auth });
    expect(res.body.data.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([b.merchant_id]);
  });

  it("POST /approve-merchant with another client's merchant_id is refused like an unknown id", async () => {
    const before = await tableCounts(s.core);
    const foreign = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: b.auth,
      json: { merchant_id: a.merchant_id },
    });
    const unknown = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: b.auth,
      json: { merchant_id: 'm_doesnotexist' },
    });
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(unknown.body));
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('webhook deliveries of another client are neither listed nor retried', async () => {
    const mine = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth: a.auth });
    const theirs = await s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth: b.auth });
    expect(mine.status).toBe(200);
    const aIds: string[] = mine.body.data.deliveries.map((d: { id: string }) => d.id);
    const bIds: string[] = theirs.body.data.deliveries.map((d: { id: string }) => d.id);
    expect(aIds.filter((id) => bIds.includes(id))).toEqual([]);
    for (const id of aIds.slice(0, 3)) {
      const retry = await s.http({
        method: 'POST',
        path: `/api/v1/client/webhook-deliveries/${id}/retry`,
        auth: b.auth,
      });
      expect(retry.status).toBe(404);
    }
  });
});
