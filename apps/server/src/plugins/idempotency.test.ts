import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { validOnboarding } from '../testing/fixtures.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const onboard = (auth: [string, string], key: string, body = validOnboarding()) =>
  s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: body, headers: { 'idempotency-key': key } });

describe('Idempotency-Key on POST', () => {
  it('replays the first response for the same request and writes once', async () => {
    const auth = await s.credentials();
    const first = await onboard(auth, 'onboard-1');
    expect(first.status).toBe(201);
    const before = await tableCounts(s.core);
    const again = await onboard(auth, 'onboard-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('answers 409 when the key is reused with another body', async () => {
    const auth = await s.credentials();
    expect((await onboard(auth, 'k2')).status).toBe(201);
    const before = await tableCounts(s.core);
    const other = await onboard(auth, 'k2', validOnboarding({ business_name: 'Other Shop' }));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ result: false, code: 'idempotency_key_reused' });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('keys are per client: another client may use the same key', async () => {
    const a = await s.credentials();
    const b = await s.credentials();
    const ra = await onboard(a, 'shared-key');
    const rb = await onboard(b, 'shared-key');
    expect(rb.status).toBe(201);
    expect(rb.body.data.merchant_key).not.toBe(ra.body.data.merchant_key);
  });

  it('concurrent requests with one key run once', async () => {
    const auth = await s.credentials();
    const results = await Promise.all(Array.from({ length: 5 }, () => onboard(auth, 'race')));
    const created = results.filter((r) => r.status === 201);
    const keys = new Set(created.map((r) => r.body.data.merchant_key));
    expect(keys.size).toBe(1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth });
    expect(list.body.data).toHaveLength(1);
  });

  it('stores the replayable response encrypted: no merchant_key in the table', async () => {
    const auth = await s.credentials();
    const res = await onboard(auth, 'secret-check');
    const rows = (await s.core.ctx.db.execute(sql`select response_body from idempotency_keys`)) as unknown as {
      rows: object[];
    };
    expect(JSON.stringify(rows.rows)).not.toContain(res.body.data.merchant_key);
  });

  it('an empty or over-long key is a 400', async () => {
    const auth = await s.credentials();
    const long = await onboard(auth, 'x'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('invalid_idempotency_key');
  });
});
