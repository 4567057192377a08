import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCredentials } from '../clients/credentials.js';
import { updateWebhookUrl } from '../clients/webhooks.js';
import { connectDatabase, type Database } from '../db/connect.js';
import { WebhookDispatcher } from './dispatcher.js';
import {
  countOverlaps,
  deliveriesById,
  eventually,
  onPostgres,
  openTestCore,
  recordThousandEvents,
  startReceiver,
  type Receiver,
  type TestCore,
} from './test-support.js';

let core: TestCore;
let second: Database | null = null;
let rx: Receiver;
beforeAll(async () => {
  core = await openTestCore();
  // On Postgres the second dispatcher has a pool of its own, as a second server process would.
  if (onPostgres) second = await connectDatabase({ databaseUrl: core.databaseUrl, poolSize: 5 });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await second?.close();
  await core.close();
});

it('two dispatchers on one database: 1,000 events, each delivered exactly once, never twice at a time', async () => {
  const { client_id } = await createCredentials(core.ctx);
  await updateWebhookUrl(core.ctx, client_id, { webhook_url: rx.url });
  const overlap = countOverlaps(rx);
  const opts = { pollMs: 5, concurrency: 8, retryScale: 0.001 };
  const a = new WebhookDispatcher(core.ctx, opts).start();
  const b = new WebhookDispatcher({ ...core.ctx, db: second?.db ?? core.ctx.db }, opts).start();
  const ids = await recordThousandEvents(core, client_id);
  await rx.waitFor((all) => all.length >= 1000, 60_000);
  await eventually(async () => {
    const r = await core.ctx.db.execute(
      sql`select count(*)::int as n from webhook_deliveries where client_id = ${client_id} and status = 'delivered'`,
    );
    return (r as unknown as { rows: Array<{ n: number }> }).rows[0]!.n === 1000;
  }, 30_000);
  await Promise.all([a.stop(), b.stop()]);
  const counts = deliveriesById(rx);
  expect(rx.received).toHaveLength(1000);
  expect([...counts.keys()].sort()).toEqual([...ids].sort());
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(overlap()).toBe(0);
}, 120_000);
