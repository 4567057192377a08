import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, type HttpResponse } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import {
  clusterTestsRun,
  movingAddress,
  startPrimary,
  startServerOn,
  startStandby,
  until,
  type MovingAddress,
  type PgNode,
} from './testing/pg-cluster.js';

/**
 * A primary failover under keyed load, as an operator does it: a synchronous standby, the primary
 * killed (`pg_ctl stop -m immediate`), the address moved first to the standby still in recovery, then
 * the standby promoted. The server stays up, answers 503 service_unavailable with Retry-After in the
 * gap (never 500), serves again within seconds, and every acknowledged keyed write is there once.
 * Postgres-only: its own clusters, started here (the PGlite pass skips it).
 */

describe.skipIf(!clusterTestsRun())('a primary failover', () => {
  let primary: PgNode;
  let standby: PgNode;
  let address: MovingAddress;
  let remit: Awaited<ReturnType<typeof startServerOn>> | undefined;
  beforeAll(async () => {
    primary = await startPrimary();
    await primary.query('create database remit');
    standby = await startStandby(primary, 'standby1');
    // Synchronous from now on: a commit is acknowledged once the standby has it (zero loss on failover).
    await primary.query("alter system set synchronous_standby_names = 'standby1'");
    await primary.query('select pg_reload_conf()');
    await until(
      async () =>
        (await primary.query<{ s: string }>('select sync_state as s from pg_stat_replication'))[0]?.s === 'sync',
      30_000,
      'the standby to be synchronous',
    );
    address = await movingAddress(primary.port);
    remit = await startServerOn({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${address.port}/remit`,
      // A claim whose request died with the database frees itself soon: the client's retry then runs.
      REMIT_IDEMPOTENCY_LEASE_MS: '2000',
      // The dispatchers run too, as on a default server: their passes fail in the gap without ending anything.
      REMIT_WORKERS: 'on',
    });
  }, 120_000);
  afterAll(async () => {
    await remit?.close();
    await address?.close();
    await standby?.destroy();
    await primary?.destroy();
  });

  it('answers 503 in the gap, serves again within 15 s of the move, loses and doubles nothing', async () => {
    const { server, authorization } = remit!;
    const seen: Array<{ at: number; status: number; res?: HttpResponse }> = [];
    const acked = new Map<string, string>();
    let stopping = false;
    const onboard = (key: string) =>
      send<{ data: Array<{ merchant_id: string }> }>({
        method: 'POST',
        url: `${server.base}/api/v1/onboarding`,
        headers: { authorization, 'idempotency-key': key },
        json: validOnboarding({ business_name: `Shop ${key}` }),
        timeoutMs: 20_000,
      });
    /** A client that sends its keys one after another, each until it gets a 2xx (as a careful client retries). */
    const client = async (c: number) => {
      for (let i = 0; !stopping; i++) {
        const key = `fo-${c}-${i}`;
        for (;;) {
          const r = await onboard(key).catch(() => null);
          seen.push({ at: Date.now(), status: r?.status ?? 0, res: r ?? undefined });
          if (r && r.status >= 200 && r.status < 300) {
            acked.set(key, JSON.stringify(r.body));
            break;
          }
          await new Promise((res) => setTimeout(res, 150));
        }
      }
    };
    const clients = Array.from({ length: 4 }, (_, c) => client(c));
    await until(() => acked.size >= 12, 60_000, 'writes before the failover');

    await primary.stop('immediate');
    const killedAt = Date.now();
    await until(() => seen.some((s) => s.at > killedAt && s.status === 503), 15_000, 'a 503 after the kill');
    // The address moves to the standby before it is promoted: reached in recovery, it is refused for writes.
    address.moveTo(standby.port);
    const onStandbyAt = Date.now();
    const ready = await send({ method: 'GET', url: `${server.base}/readyz` });
    expect(ready.status).toBe(503);
    await until(
      () => seen.filter((s) => s.at > onStandbyAt && s.status === 503).length >= 2,
      15_000,
      '503s on the standby',
    );
    await standby.promote();
    const movedAt = Date.now();
    await until(
      () => seen.some((s) => s.at > movedAt && s.status >= 200 && s.status < 300),
      15_000,
      'a 2xx after the promotion',
    );
    const servingAt = seen.find((s) => s.at > movedAt && s.status >= 200 && s.status < 300)!.at;
    expect(servingAt - movedAt).toBeLessThan(15_000);
    const before = acked.size;
    await until(() => acked.size >= before + 8, 30_000, 'writes after the failover');
    stopping = true;
    await Promise.all(clients);

    // The gap answered 503 service_unavailable with Retry-After, never a 500.
    const gap = seen.filter((s) => s.status === 503);
    expect(gap.length).toBeGreaterThan(0);
    for (const s of gap) {
      expect(s.res!.headers['retry-after']).toBe('2');
      expect(s.res!.body).toMatchObject({ result: false, code: 'service_unavailable' });
    }
    expect(seen.filter((s) => s.status === 500 || s.status === 0)).toEqual([]);
    expect((await send({ method: 'GET', url: `${server.base}/readyz` })).status).toBe(200);
    expect(server.proc.exitCode).toBeNull();

    // Every acknowledged write is on the new primary, once; no key wrote twice.
    const rows = await standby.query<{ name: string; id: string; n: number }>(
      `select businessname as name, min(public_key) as id, count(*)::int as n from merchants
       where businessname like 'Shop fo-%' group by businessname`,
      'remit',
    );
    const byName = new Map(rows.map((r) => [r.name, r]));
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    for (const [key, body] of acked) {
      const row = byName.get(`Shop ${key}`);
      expect(row, key).toBeDefined();
      expect(body).toContain(row!.id);
    }
    // One line when the database was lost, one when it came back.
    const lines = server.output().split('\n');
    expect(lines.filter((l) => l.includes('database connection lost')).length).toBe(1);
    expect(lines.filter((l) => l.includes('database connection back')).length).toBe(1);
  }, 150_000);
});
