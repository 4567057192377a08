import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testPostgresAdminUrl } from '@remit/core/testing';
import { startTestServer, testDbKind, type TestServer } from '../testing/harness.js';
import { portalSignIn } from '../testing/portal.js';

let s: TestServer;
const lines: Array<{ level: number; msg: string; req?: { url: string }; reqId?: string }> = [];
beforeAll(async () => {
  s = await startTestServer({ logLevel: 'debug', logStream: { write: (l) => void lines.push(JSON.parse(l)) } });
});
afterAll(() => s.close());

const get = (path: string) => s.http({ method: 'GET', path });
const rootVersion = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8')).version;

it('/livez and /readyz answer 200 beside /healthz; /livez names the version running', async () => {
  for (const path of ['/healthz', '/readyz']) {
    const r = await get(path);
    expect([path, r.status, r.body]).toEqual([path, 200, { status: 'ok' }]);
  }
  const r = await get('/livez');
  expect([r.status, r.body]).toEqual([200, { status: 'ok', version: rootVersion }]);
  expect(rootVersion).toMatch(/^\d+\.\d+\.\d+/);
});

it('/readyz answers 503 while a migration of this code is missing from the database', async () => {
  const latest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
  const kept = await s.core.ctx.db.execute(
    sql`select * from drizzle.__drizzle_migrations where created_at = ${latest}`,
  );
  const row = (kept as unknown as { rows: Array<{ hash: string; created_at: string }> }).rows[0]!;
  await s.core.ctx.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${row.created_at}`);
  try {
    const r = await get('/readyz');
    expect([r.status, r.body]).toEqual([
      503,
      { status: 'unavailable', reason: 'database migrations are not all applied' },
    ]);
    expect((await get('/livez')).status).toBe(200);
  } finally {
    await s.core.ctx.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row.hash}, ${row.created_at})`,
    );
  }
  expect((await get('/readyz')).status).toBe(200);
});

it.runIf(testDbKind === 'postgres')(
  '/readyz answers 503 while Postgres refuses connections, /livez 200; ready again after',
  async () => {
    const current = await s.core.ctx.db.execute(sql`select current_database() as name`);
    const name = (current as unknown as { rows: Array<{ name: string }> }).rows[0]!.name;
    const admin = new pg.Client({ connectionString: testPostgresAdminUrl });
    await admin.connect();
    try {
      await admin.query(`alter database ${name} allow_connections false`);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      const r = await get('/readyz');
      expect([r.status, r.body]).toEqual([503, { status: 'unavailable', reason: 'the database did not answer' }]);
      expect((await get('/livez')).status).toBe(200);
    } finally {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
    }
    expect((await get('/readyz')).status).toBe(200);
  },
);

it('probes and the portal’s polls log their request lines at debug, other requests at info', async () => {
  const portal = await portalSignIn(s);
  lines.length = 0;
  for (const path of ['/healthz', '/livez', '/readyz']) await get(path);
  expect((await portal.call('GET', '/merchants')).status).toBe(200);
  expect((await portal.call('GET', '/onboarding-example')).status).toBe(200);
  const requestLines = lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
  const levelOf = (url: string) => {
    const ids = new Set(requestLines.filter((l) => l.req?.url === url).map((l) => l.reqId));
    return requestLines.filter((l) => ids.has(l.reqId)).map((l) => l.level);
  };
  const DEBUG = 20;
  const INFO = 30;
  for (const url of ['/healthz', '/livez', '/readyz', '/portal/api/merchants'])
    expect([url, levelOf(url)]).toEqual([url, [DEBUG, DEBUG]]);
  expect(levelOf('/portal/api/onboarding-example')).toEqual([INFO, INFO]);
});
