import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '@remit/core';
import type { TestServer } from './testing/harness.js';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import { charge, newCustomer } from './testing/payments.js';
import {
  clusterTestsRun,
  processHttp,
  startPrimary,
  startServerOn,
  startStandby,
  until,
  type PgNode,
} from './testing/pg-cluster.js';

/**
 * Read replicas (DATABASE_REPLICA_URL): lists and single reads go to a streaming standby; a client
 * reads its own writes even while the replica has not replayed them; a replica that lags past the
 * bound or stops is skipped with a warn line, and the reads still answer. Postgres-only.
 */

const MAX_LAG_MS = 3_000;

describe.skipIf(!clusterTestsRun())('read replicas', () => {
  let primary: PgNode;
  let replica: PgNode;
  let remit: Awaited<ReturnType<typeof startServerOn>> | undefined;
  let s: TestServer;
  let merchant: TestMerchant;
  let customer: number;
  beforeAll(async () => {
    primary = await startPrimary();
    await primary.query('create database remit');
    replica = await startStandby(primary, 'replica1', ["log_statement = 'all'"]);
    remit = await startServerOn({
      DATABASE_URL: primary.url('remit'),
      DATABASE_REPLICA_URL: replica.url('remit'),
      REMIT_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      // The line saying a replica serves again is at info.
      LOG_LEVEL: 'info',
    });
    s = processHttp(remit.server.base) as TestServer;
    merchant = await newMerchant(s);
    customer = await newCustomer(s, merchant);
  }, 120_000);
  afterAll(async () => {
    await remit?.close();
    await replica?.destroy();
    await primary?.destroy();
  });

  const list = () =>
    s.http<{ total: number; data: Array<{ transaction_id: string }> }>({
      method: 'GET',
      path: '/api/v1/merchant/transactions',
      auth: merchant.auth,
      json: { merchant_key: merchant.merchant_key },
    });
  const listedOnReplica = () =>
    replica
      .log()
      .split('\n')
      .filter((l) => l.includes('remit_transactions_page')).length;
  const warnings = () =>
    remit!.server
      .output()
      .split('\n')
      .filter((l) => l.includes('replica '));

  it('lists read on the replica once it has the writes; /metrics shows its lag', async () => {
    const id = await charge(s, merchant, customer, '12.00');
    // Once the replica has replayed past the charge, the list is read there (and shows it).
    await until(
      async () => {
        const r = await list();
        expect(r.status).toBe(200);
        expect(r.body.data.map((t) => t.transaction_id)).toContain(id);
        return listedOnReplica() > 0;
      },
      20_000,
      'a list read on the replica',
    );
    const metrics = await s.http({ method: 'GET', path: '/metrics' });
    expect(metrics.text).toMatch(
      new RegExp(`remit_db_replica_lag_seconds\\{replica="127.0.0.1:${replica.port}"\\} [0-9.]+`),
    );
  }, 60_000);

  it('a client reads its own writes while replay is paused; the lagging replica is skipped with a warn line', async () => {
    await replica.query('select pg_wal_replay_pause()');
    const before = listedOnReplica();
    for (let i = 0; i < 3; i++) {
      const id = await charge(s, merchant, customer, `${20 + i}.00`);
      // Straight after its write, the client's read goes to the primary: the charge is there.
      const r = await list();
      expect(r.status).toBe(200);
      expect(r.body.data.map((t) => t.transaction_id)).toContain(id);
    }
    expect(listedOnReplica()).toBe(before);
    // Past the bound, the replica is skipped (one warn line) and reads keep answering from the primary.
    await until(() => warnings().some((l) => l.includes('lags')), 20_000, 'the lag warning');
    const r = await list();
    expect([r.status, r.body.total]).toEqual([200, 4]);
    expect(listedOnReplica()).toBe(before);
    await replica.query('select pg_wal_replay_resume()');
    await until(() => warnings().some((l) => l.includes('serves reads again')), 20_000, 'the replica back');
    expect(warnings().filter((l) => l.includes('lags')).length).toBe(1);
  }, 60_000);

  it('several hosts in DATABASE_URL: a standby in recovery is passed over for the writable primary', async () => {
    const hosts = `127.0.0.1:${replica.port},127.0.0.1:${primary.port}`;
    const portOf = async (url: string) => {
      const database = await connectDatabase({ databaseUrl: url, poolSize: 1 });
      try {
        const r = await database.db.execute(sql`select inet_server_port() as port, pg_is_in_recovery() as standby`);
        return (r as unknown as { rows: Array<{ port: number; standby: boolean }> }).rows[0];
      } finally {
        await database.close();
      }
    };
    expect(await portOf(`postgres://postgres@${hosts}/remit`)).toEqual({ port: primary.port, standby: false });
    expect(await portOf(`postgres://postgres@${hosts}/remit?target_session_attrs=read-write`)).toEqual({
      port: primary.port,
      standby: false,
    });
  }, 60_000);

  it('a replica that stops is skipped with a warn line; reads still answer', async () => {
    await replica.stop('immediate');
    await until(() => warnings().some((l) => l.includes('does not answer')), 20_000, 'the replica gone warning');
    const id = await charge(s, merchant, customer, '30.00');
    await new Promise((r) => setTimeout(r, 1_000));
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.data.map((t) => t.transaction_id)).toContain(id);
    const one = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions/${id}`,
      auth: merchant.auth,
      json: { merchant_key: merchant.merchant_key },
    });
    expect(one.status).toBe(200);
    expect(warnings().filter((l) => l.includes('does not answer')).length).toBe(1);
  }, 60_000);
});
