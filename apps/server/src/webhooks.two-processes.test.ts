import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCredentials, openCore, updateWebhookUrl, type Core } from '@remit/core';
import { countOverlaps, deliveriesById, recordThousandEvents, startReceiver, type Receiver } from '@remit/core/testing';
import { createTestDatabase } from './testing/harness.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * Two real server processes on one Postgres (always the local Postgres: sharing a database between
 * processes is what it is for) deliver 1,000 events: each exactly once, none twice at the same time.
 */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let core: Core;
let rx: Receiver;
const servers: ServerProcess[] = [];
const encryptionKey = randomBytes(32);

beforeAll(async () => {
  db = await createTestDatabase();
  // Migrate once here, so the two servers start on a ready schema.
  core = await openCore({ env: 'sandbox', publicUrl: 'http://127.0.0.1', encryptionKey, databaseUrl: db.url });
  rx = await startReceiver();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await rx.close();
  await core.close();
  await db.drop();
});

it('two server processes on one Postgres: 1,000 events delivered once each, never concurrently twice', async () => {
  const { client_id } = await createCredentials(core.ctx);
  await updateWebhookUrl(core.ctx, client_id, { webhook_url: rx.url });
  const overlap = countOverlaps(rx);
  const env = {
    DATABASE_URL: db.url,
    REMIT_ENCRYPTION_KEY: encryptionKey.toString('hex'),
    REMIT_WEBHOOK_RETRY_SCALE: '0.001',
  };
  servers.push(await startProcess('apps/server/src/main.ts', env));
  servers.push(await startProcess('apps/server/src/main.ts', env));

  const ids = await recordThousandEvents(core, client_id);
  await rx.waitFor(() => deliveriesById(rx).size >= 1000, 120_000);
  // Give a duplicate, if there were one, the time to arrive.
  await new Promise((r) => setTimeout(r, 500));

  const counts = deliveriesById(rx);
  expect(overlap()).toBe(0);
  expect([...counts.keys()].sort()).toEqual([...ids].sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  const r = await core.ctx.db.execute(
    sql`select status, count(*)::int as n from webhook_deliveries where client_id = ${client_id} group by status`,
  );
  expect((r as unknown as { rows: unknown[] }).rows).toEqual([{ status: 'delivered', n: 1000 }]);
}, 240_000);
