import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './testing/harness.js';
import { newMerchant, validOnboarding, type TestMerchant } from './testing/fixtures.js';
import { newCustomer, TEST_CARD } from './testing/payments.js';
import {
  clusterTestsRun,
  processHttp,
  startPgBouncer,
  startPrimary,
  startServerOn,
  type PgBouncer,
  type PgNode,
} from './testing/pg-cluster.js';

/**
 * Behind PgBouncer 1.18 in transaction mode (DATABASE_URL the pooler, DATABASE_DIRECT_URL the
 * database for migrations): every write works, none leans on a statement named on another
 * transaction's server connection. Postgres-only (the PGlite pass skips it).
 */

describe.skipIf(!clusterTestsRun())('behind PgBouncer in transaction mode', () => {
  let primary: PgNode;
  let bouncer: PgBouncer;
  let remit: Awaited<ReturnType<typeof startServerOn>> | undefined;
  beforeAll(async () => {
    primary = await startPrimary();
    await primary.query('create database remit');
    // Fewer server connections than the server's pool: each transaction lands on any of them.
    bouncer = await startPgBouncer(primary, 4);
    remit = await startServerOn({
      DATABASE_URL: bouncer.url('remit'),
      DATABASE_DIRECT_URL: primary.url('remit'),
    });
  }, 120_000);
  afterAll(async () => {
    await remit?.close();
    await bouncer?.stop();
    await primary?.destroy();
  });

  it('300 mixed writes from 10 clients all answer 2xx', async () => {
    const s = processHttp(remit!.server.base) as TestServer;
    const merchant: TestMerchant = await newMerchant(s);
    const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer(s, merchant)));
    const statuses: number[] = [];
    const failures: string[] = [];
    const write = async (c: number, i: number) => {
      const auth = merchant.auth;
      const kind = i % 4;
      const r =
        kind === 0
          ? await s.http({
              method: 'POST',
              path: `/api/v1/customers/charge/${customers[c]}`,
              auth,
              headers: { 'idempotency-key': `pool-${c}-${i}` },
              json: {
                merchant_key: merchant.merchant_key,
                amount: `${1 + i}.00`,
                order_id: `o-${c}-${i}`,
                preAuth: false,
              },
            })
          : kind === 1
            ? await s.http({
                method: 'POST',
                path: `/api/v1/customers/charge/${customers[c]}`,
                auth,
                json: { merchant_key: merchant.merchant_key, amount: '2.50', order_id: `u-${c}-${i}`, preAuth: true },
              })
            : kind === 2
              ? await s.http({
                  method: 'POST',
                  path: '/api/v1/customers/add',
                  auth,
                  json: {
                    merchant_key: merchant.merchant_key,
                    first_name: 'Grace',
                    last_name: `Hopper ${c}-${i}`,
                    card: TEST_CARD,
                  },
                })
              : await s.http({
                  method: 'POST',
                  path: '/api/v1/onboarding',
                  auth,
                  headers: { 'idempotency-key': `onb-${c}-${i}` },
                  json: validOnboarding({ business_name: `Pooled ${c}-${i}` }),
                });
      statuses.push(r.status);
      if (r.status >= 300) failures.push(`${r.status} ${r.text}`);
    };
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        for (let i = 0; i < 30; i++) await write(c, i);
      }),
    );
    expect(failures.slice(0, 3)).toEqual([]);
    expect(statuses.length).toBe(300);
    // The reads behind the writes went through the pooler too.
    const list = await s.http<{ total: number }>({
      method: 'GET',
      path: '/api/v1/merchant/transactions',
      auth: merchant.auth,
      json: { merchant_key: merchant.merchant_key },
    });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(160);
    // Each charge is there once: 80 keyed sales (o-), 80 unkeyed preauthorizations (u-).
    const rows = await primary.query<{ kind: string; n: number }>(
      `select left(order_id, 2) as kind, count(*)::int as n from transactions
       where order_id like 'o-%' or order_id like 'u-%' group by 1 order by 1`,
      'remit',
    );
    expect(rows).toEqual([
      { kind: 'o-', n: 80 },
      { kind: 'u-', n: 80 },
    ]);
    expect(bouncer.log()).not.toContain('prepared statement');
  }, 120_000);
});
